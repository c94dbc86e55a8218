import { Fragment, useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { FileText } from '../../components/ui/icons.tsx';
import type { Message, MessageFile } from '#contract/chat';
import { Picture } from '../../components/ui/picture.tsx';
import { dayKey, dayLabel, fileSize, isImage, linkify, maskedNote, timeLabel } from './format.ts';

function MessageText({ text }: { text: string }) {
  return (
    <p className="msg__text">
      {linkify(text).map((part, i) =>
        part.type === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </p>
  );
}

function Attachment({ file, onImageLoad }: { file: MessageFile; onImageLoad: () => void }) {
  if (isImage(file.mime)) {
    return (
      <a className="msg__image" href={file.url} target="_blank" rel="noopener noreferrer">
        <Picture src={file.url} sizes="(max-width: 480px) 70vw, 320px" alt="" onLoad={onImageLoad} />
        {/* The uploaded name, as files have it (issue 15, 6); the picture's text alternative is this caption. */}
        <span className="msg__image-name">{file.name}</span>
      </a>
    );
  }
  return (
    <a className="msg__file" href={file.url} target="_blank" rel="noopener noreferrer" download={file.name}>
      <FileText size={20} aria-hidden />
      <span className="msg__file-name">{file.name}</span>
      <span className="msg__file-size">{fileSize(file.size)}</span>
    </a>
  );
}

export interface MessageLogProps {
  /** Newest first. */
  messages: Message[];
  me: string | null;
  hasMore: boolean;
  loading: boolean;
  error: boolean;
  onLoadMore: () => void;
  empty: string;
}

const NEAR = 80;

/** The conversation, oldest at the top; scrolling near the top loads older pages and keeps the position. */
export function MessageLog({ messages, me, hasMore, loading, error, onLoadMore, empty }: MessageLogProps) {
  const box = useRef<HTMLDivElement>(null);
  /** Distance from the bottom to restore after older messages were put on top. */
  const anchor = useRef<number | null>(null);
  const stick = useRef(true);
  const newest = useRef<string | undefined>(undefined);

  const more = useCallback(() => {
    const el = box.current;
    if (!el || loading || !hasMore) return;
    anchor.current = el.scrollHeight - el.scrollTop;
    onLoadMore();
  }, [hasMore, loading, onLoadMore]);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const newestId = messages[0]?._id;
    if (anchor.current !== null && newestId === newest.current) {
      el.scrollTop = el.scrollHeight - anchor.current;
    } else if (newestId !== newest.current && (stick.current || messages[0]?.sender._id === me)) {
      el.scrollTop = el.scrollHeight;
    }
    if (!loading) anchor.current = null;
    newest.current = newestId;
  }, [messages, me, loading]);

  // Not enough to scroll yet: fetch the next page straight away.
  useEffect(() => {
    const el = box.current;
    if (el && !loading && hasMore && messages.length > 0 && el.scrollHeight <= el.clientHeight + NEAR) more();
  }, [messages.length, loading, hasMore, more]);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR;
    if (el.scrollTop < NEAR) more();
  };

  const onImageLoad = () => {
    const el = box.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  };

  const ordered = [...messages].reverse();
  return (
    <div ref={box} className="chat-log" role="log" aria-live="polite" aria-label="Сообщения" tabIndex={0} onScroll={onScroll}>
      {loading && <p className="chat-log__note">Загрузка…</p>}
      {error && <p className="chat-log__note">Не удалось загрузить сообщения.</p>}
      {!loading && !error && messages.length === 0 && <p className="chat-log__note">{empty}</p>}
      {ordered.map((m, i) => {
        const mine = m.sender._id === me;
        const note = maskedNote(m, me);
        const newDay = i === 0 || dayKey(ordered[i - 1]!.created_at) !== dayKey(m.created_at);
        return (
          <Fragment key={m._id}>
            {newDay && (
              <p className="chat-log__day">
                <span>{dayLabel(m.created_at)}</span>
              </p>
            )}
            <div className={`msg${mine ? ' msg--mine' : ''}${m.kind && m.kind !== 'text' ? ` msg--${m.kind}` : ''}`} data-message-id={m._id}>
              {m.message && <MessageText text={m.message} />}
              {m.files.length > 0 && (
                <div className="msg__files">
                  {m.files.map((f) => (
                    <Attachment key={f.url} file={f} onImageLoad={onImageLoad} />
                  ))}
                </div>
              )}
              {note && <p className="msg__note">{note}</p>}
              <span className="msg__meta">
                <time dateTime={m.created_at}>{timeLabel(m.created_at)}</time>
                {mine && (
                  <span className={`msg__seen${m.seen ? ' msg__seen--seen' : ''}`} data-seen={m.seen ? 'true' : 'false'}>
                    <span aria-hidden>{m.seen ? '✓✓' : '✓'}</span>
                    <span className="visually-hidden">{m.seen ? 'прочитано' : 'доставлено'}</span>
                  </span>
                )}
              </span>
            </div>
          </Fragment>
        );
      })}
    </div>
  );
}
