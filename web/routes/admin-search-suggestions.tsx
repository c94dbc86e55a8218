import { useState } from 'react';
import { useLoaderData, useNavigation, useRevalidator, useSearchParams } from 'react-router';
import { GetForm } from '../components/ui/get-form.tsx';
import { Trash2 } from '../components/ui/icons.tsx';
import type { Route } from './+types/admin-search-suggestions';
import { api } from '../lib/api.ts';
import { toast } from '../lib/toast-store.ts';
import { pageMeta } from '../lib/meta.ts';
import { AppLink } from '../components/ui/app-link.tsx';
import { TextAreaField, TextField } from '../components/ui/form.tsx';
import { firstError, groupsText, parseGroups, suggestionsFilters, suggestionsTab, synonymsProblem } from '../features/admin/index.ts';
import { DateCell } from '../components/ui/date-cell.tsx';

// /admin/search-suggestions: what the header's search box suggests, and a way to remove a suggestion for good;
// and the search's synonym dictionary (the operator setting search.synonyms, ADR 028).

export async function clientLoader({ url }: Route.ClientLoaderArgs) {
  const { hidden, q } = suggestionsFilters(url.searchParams);
  const [answer, settings] = await Promise.all([
    api.read('admin.searchSuggestions.list', { query: { q: q || undefined, hidden: hidden ? '1' : undefined } }, { fresh: true }).catch(() => null),
    api.read('admin.settings.get', {}, { fresh: true }).catch(() => null),
  ]);
  return { rows: answer?.result ?? [], failed: answer === null, hidden, q, synonyms: settings?.result['search.synonyms'] ?? null };
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="page" aria-busy="true">
      <h1 className="page__title">Поисковые подсказки</h1>
      <div className="skeleton" style={{ height: 240 }} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'Поисковые подсказки');

export default function AdminSearchSuggestionsPage() {
  const { rows, failed, hidden, q, synonyms } = useLoaderData<typeof clientLoader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);

  async function remove(query: string) {
    setBusy(query);
    const { error } = await api.write('admin.searchSuggestions.hide', { params: { query } });
    setBusy(null);
    if (error) return void toast(error.message);
    toast(`Подсказка «${query}» удалена`, { type: 'success' });
    await revalidator.revalidate();
  }

  const tab = (toHidden: boolean) => suggestionsTab(params, toHidden);

  return (
    <section className="page">
      <h1 className="page__title">Поисковые подсказки</h1>
      <p className="field__hint">
        Подсказкой становится запрос, по которому нашли услуги разные посетители (каждый считается раз в сутки). Удалённая
        подсказка больше не показывается, даже если её снова ищут.
      </p>
      <nav className="tabs" aria-label="Подсказки">
        <ul>
          <li>
            <AppLink to={tab(false)} className="tabs__link" aria-current={hidden ? undefined : 'page'}>
              Показываются
            </AppLink>
          </li>
          <li>
            <AppLink to={tab(true)} className="tabs__link" aria-current={hidden ? 'page' : undefined}>
              Удалённые
            </AppLink>
          </li>
        </ul>
      </nav>
      <GetForm className="toolbar" role="search">
        {hidden && <input type="hidden" name="hidden" value="1" />}
        <TextField label="Начало запроса" name="q" defaultValue={q} key={q} />
        <button type="submit" className="btn btn--primary" disabled={navigation.state !== 'idle'}>
          Найти
        </button>
      </GetForm>
      {failed ? (
        <p className="empty-state">Не удалось загрузить подсказки. Обновите страницу.</p>
      ) : rows.length === 0 ? (
        <p className="empty-state">{hidden ? 'Удалённых подсказок нет.' : 'Подсказок нет.'}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Запрос</th>
              <th>Искавших</th>
              <th>Обновлено</th>
              {!hidden && <th>Действия</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.query}>
                <td data-label="Запрос">{row.query}</td>
                <td data-label="Искавших">{row.searches}</td>
                <DateCell label="Обновлено" date={row.updated_at} />
                {!hidden && (
                  <td data-label="Действия">
                    <button
                      type="button"
                      className="btn btn--danger btn--sm"
                      onClick={() => remove(row.query)}
                      disabled={busy !== null}
                      aria-label={`Удалить подсказку «${row.query}»`}
                    >
                      <Trash2 size={16} aria-hidden="true" /> Удалить
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {synonyms && <SynonymsForm groups={synonyms} onSaved={() => void revalidator.revalidate()} />}
    </section>
  );
}

/** The search's synonym dictionary: saved as an operator setting, in effect on every instance within seconds. */
function SynonymsForm({ groups, onSaved }: { groups: string[][]; onSaved: () => void }) {
  const [text, setText] = useState(() => groupsText(groups));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const parsed = parseGroups(text);
    const problem = synonymsProblem(parsed);
    if (problem) return void setError(problem);
    setError(null);
    setBusy(true);
    const res = await api.write('admin.settings.update', { body: { 'search.synonyms': parsed } });
    setBusy(false);
    if (res.error) return void setError(firstError(res.error));
    toast('Синонимы сохранены', { type: 'success' });
    onSaved();
  }

  return (
    <form className="form form--card synonyms-form" onSubmit={save} noValidate>
      <h2 className="synonyms-form__title">Синонимы поиска</h2>
      <p className="field__hint">
        Одна группа в строке, слова через запятую: поиск любого слова группы находит и остальные (например,
        «telegram, телеграм»). Изменения действуют через несколько секунд, без перезапуска.
      </p>
      <TextAreaField
        label="Группы синонимов"
        name="synonyms"
        rows={12}
        value={text}
        onChange={(e) => setText(e.target.value)}
        errors={error ? { synonyms: [error] } : undefined}
      />
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? 'Сохраняем…' : 'Сохранить синонимы'}
      </button>
    </form>
  );
}
