import { useRevalidator } from 'react-router';
import type { Route } from './+types/admin-settings';
import { pageMeta } from '../lib/meta.ts';
import { SettingsForm } from '../features/admin/index.ts';
import '../styles/payments.css';
import '../styles/admin.css';

// /admin/settings: every operator setting on one page (ADR 036).

export async function loader({ context }: Route.LoaderArgs) {
  const res = await context.read('admin.settings.get');
  return { settings: res.ok ? res.body.result : null };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Настройки');

export default function AdminSettingsPage({ loaderData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  const { settings } = loaderData;
  return (
    <section className="page">
      <h1 className="page__title">Настройки</h1>
      <p className="muted">Изменения действуют сразу, без перезапуска, и записываются в журнал действий.</p>
      {settings ? (
        // Remounted after a save, so the fields show the values as stored (normalised by the server).
        <SettingsForm key={JSON.stringify(settings)} settings={settings} onSaved={() => void revalidator.revalidate()} />
      ) : (
        <p className="form-error">Не удалось загрузить настройки.</p>
      )}
    </section>
  );
}
