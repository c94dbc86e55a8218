import { useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Me } from '#contract/api';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { Avatar } from '../../components/ui/avatar.tsx';

const MAX_BYTES = 20 * 1024 * 1024;

export function AvatarEditor({ user }: { user: Me }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const revalidator = useRevalidator();
  const name = `${user.name} ${user.surname}`.trim() || user.user_name;

  async function setAvatar(filePath: string | null) {
    const { error } = await api.write('users.setAvatar', { body: { filePath } });
    if (error) return toast(error.message);
    toast(filePath ? 'Аватар обновлён' : 'Аватар удалён', { type: 'success' });
    await revalidator.revalidate();
  }

  async function upload(file: File) {
    if (file.size > MAX_BYTES) return toast('Файл больше 20 МБ');
    setBusy(true);
    const form = new FormData();
    form.append('file', file);
    const { data, error } = await api.write('files.upload', { body: form });
    if (error) toast(error.message);
    else await setAvatar(data.result.filePath);
    setBusy(false);
    if (input.current) input.current.value = '';
  }

  return (
    <div className="avatar-editor">
      <Avatar name={name} src={user.avatar} size={72} />
      <label className="btn btn--ghost">
        {busy ? 'Загрузка…' : 'Загрузить фото'}
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          className="visually-hidden"
          disabled={busy}
          onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])}
        />
      </label>
      {user.avatar && (
        <button type="button" className="btn btn--ghost" onClick={() => setAvatar(null)} disabled={busy}>
          Удалить
        </button>
      )}
    </div>
  );
}
