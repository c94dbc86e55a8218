import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Paperclip, Send, X } from '../../components/ui/icons.tsx';
import type { SentMessage } from '#contract/chat';
import { CHAT_MESSAGES, MAX_MESSAGE_FILES, MAX_MESSAGE_LENGTH } from '#contract/chat-constants';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { MAX_FILE_BYTES, uploadFile } from '../../lib/upload.ts';
import { fileSize } from './format.ts';
import { attachmentsOf, canSendMessage, filesThatFit, sendFailureText, sendsOnEnter } from './composer-rules.ts';

interface Attachment {
  key: number;
  name: string;
  size: number;
  progress: number;
  url?: string;
  failed?: boolean;
}

export type Target = { chat_id: string; service_id?: string } | { recipient: string; service_id?: string };

export interface ComposerProps {
  target: Target;
  onSent: (message: SentMessage) => void;
}

let nextKey = 1;

export function Composer({ target, onSent }: ComposerProps) {
  const [text, setText] = useState('');
  const [files, setFiles] = useState<Attachment[]>([]);
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const textId = useId();
  /** The uploads in flight by attachment key: removing an attachment, or leaving, cancels its upload. */
  const uploads = useRef(new Map<number, AbortController>());
  useEffect(() => {
    const inFlight = uploads.current;
    return () => inFlight.forEach((upload) => upload.abort());
  }, []);

  const patch = (key: number, p: Partial<Attachment>) => setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...p } : f)));

  function attach(list: FileList | null) {
    if (!list) return;
    const picked = [...list];
    const { take, tooMany } = filesThatFit(files.length, picked.length);
    if (tooMany) toast(CHAT_MESSAGES.tooManyFiles);
    for (const file of picked.slice(0, take)) {
      if (file.size > MAX_FILE_BYTES) {
        toast(`Файл «${file.name}» больше 20 МБ`);
        continue;
      }
      const key = nextKey++;
      setFiles((l) => [...l, { key, name: file.name, size: file.size, progress: 0 }]);
      const upload = new AbortController();
      uploads.current.set(key, upload);
      void uploadFile(file, { onProgress: (p) => patch(key, { progress: p }), signal: upload.signal }).then((up) => {
        uploads.current.delete(key);
        if (up.file) return patch(key, { url: up.file.url, progress: 1 });
        if (up.aborted) return;
        patch(key, { failed: true });
        toast(up.error);
      });
    }
    if (input.current) input.current.value = '';
  }

  const { uploading, ready } = attachmentsOf(files);
  const canSend = canSendMessage({ sending, uploading, text, ready: ready.length });

  async function send(e?: FormEvent) {
    e?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const { data, error } = await api.write('chat.send', { body: { message: text, files: ready, ...target } });
    setSending(false);
    if (error || !data?.result) {
      toast(sendFailureText(error));
      return;
    }
    if (data.result.masked) toast(data.result.notice ?? CHAT_MESSAGES.contactsMasked);
    setText('');
    setFiles([]);
    onSent(data.result);
    area.current?.focus();
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (sendsOnEnter({ key: e.key, shiftKey: e.shiftKey, isComposing: e.nativeEvent.isComposing })) {
      e.preventDefault();
      void send();
    }
  };

  return (
    <form className="composer" onSubmit={send}>
      {files.length > 0 && (
        <AttachmentChips
          files={files}
          onRemove={(key) => {
            uploads.current.get(key)?.abort();
            setFiles((l) => l.filter((x) => x.key !== key));
          }}
        />
      )}
      <div className="composer__row">
        <label className="composer__attach btn btn--ghost" title="Прикрепить файлы">
          <Paperclip size={18} aria-hidden />
          <span className="visually-hidden">Прикрепить файлы</span>
          <input
            ref={input}
            type="file"
            multiple
            className="visually-hidden"
            disabled={files.length >= MAX_MESSAGE_FILES}
            onChange={(e) => attach(e.target.files)}
            data-testid="chat-file-input"
          />
        </label>
        <label htmlFor={textId} className="visually-hidden">
          Сообщение
        </label>
        <textarea
          id={textId}
          ref={area}
          className="input composer__text"
          rows={2}
          maxLength={MAX_MESSAGE_LENGTH}
          placeholder="Напишите сообщение…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="btn btn--primary composer__send" disabled={!canSend}>
          <Send size={18} aria-hidden />
          <span className="visually-hidden">Отправить</span>
        </button>
      </div>
    </form>
  );
}

/** The attached files above the text: each with its size, its upload's progress or its failure, and a remove button. */
function AttachmentChips({ files, onRemove }: { files: Attachment[]; onRemove: (key: number) => void }) {
  return (
    <ul className="composer__files" aria-label="Вложения">
      {files.map((f) => (
        <li key={f.key} className={`chip${f.failed ? ' chip--failed' : ''}`}>
          <span className="chip__name">{f.name}</span>
          <span className="chip__size">{f.failed ? 'ошибка' : f.url ? fileSize(f.size) : `${Math.round(f.progress * 100)}%`}</span>
          {!f.url && !f.failed && <progress className="chip__progress" max={1} value={f.progress} aria-label={`Загрузка ${f.name}`} />}
          <button type="button" className="chip__remove" aria-label={`Убрать файл ${f.name}`} onClick={() => onRemove(f.key)}>
            <X size={14} aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}
