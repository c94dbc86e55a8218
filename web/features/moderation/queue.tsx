import { useRevalidator, useSearchParams } from 'react-router';
import { Pencil } from '../../components/ui/icons.tsx';
import type { PublicUser } from '#contract/catalog';
import { formatDate, formatRelative } from '../../lib/dates.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { displayName } from '../../lib/people.ts';
import { ListSearch, StateTabs, useListLink } from '../../components/ui/list-controls.tsx';
import { isPublic, type ItemKind, publicPath, StatusBadge } from '../items/index.ts';
import { ModerationActions } from './moderation-actions.tsx';
import type { QueueTab } from './tabs.ts';

/** One row of a moderation queue, whatever its kind. */
export interface QueueRow {
  _id: string;
  title: string;
  category: string;
  category_title: string;
  status: string;
  /** An edit of a live service waiting for the decision (issue 15, 3). */
  pending_edit?: unknown;
  reason: string | null;
  owner: PublicUser;
  /** Shown under the owner's name (the customer's email for projects). */
  ownerNote?: string;
  /** Price or budget, formatted. */
  money: string;
  created_at: string;
}

export interface QueueProps {
  kind: ItemKind;
  title: string;
  tabs: readonly QueueTab[];
  /** The tab in the URL (or the default one). */
  tab: string;
  rows: QueueRow[];
  total: number;
  next: string | null;
  failed: boolean;
  moneyLabel: string;
  searchHint: string;
}

export function ModerationQueue({
  kind,
  title,
  tabs,
  tab,
  rows,
  total,
  next,
  failed,
  moneyLabel,
  searchHint,
}: QueueProps) {
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const base = kind === 'service' ? '/admin/services' : '/admin/projects';
  const q = params.get('q') ?? '';
  const link = useListLink(base);
  const onFirstPage = !params.get('cursor');
  const empty = tabs.find((t) => t.value === tab)?.empty ?? 'Ничего не нашлось.';

  return (
    <section className="page">
      <h1 className="page__title">{title}</h1>
      <StateTabs tabs={tabs} current={tab} link={link} />
      <ListSearch q={q} status={tab} placeholder={searchHint} resetTo={link({ q: null })} />
      {failed ? (
        <div className="empty-state" role="alert">
          <p>Не удалось загрузить список.</p>
          <button type="button" className="btn btn--primary" onClick={() => revalidator.revalidate()}>
            Повторить
          </button>
        </div>
      ) : (
        <>
          <p className="field__hint" aria-live="polite">
            Найдено: {total > 10_000 ? 'больше 10 000' : total}
          </p>
          {rows.length === 0 ? (
            <p className="empty-state">
              {q ? 'По запросу ничего не нашлось. Измените запрос или выберите другую вкладку.' : empty}
            </p>
          ) : (
            <table className="table queue">
              <thead>
                <tr>
                  <th scope="col">Название и категория</th>
                  <th scope="col">Владелец</th>
                  <th scope="col">{moneyLabel}</th>
                  <th scope="col">Создан{kind === 'service' ? 'а' : ''}</th>
                  <th scope="col">Действия</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <QueueRowView key={row._id} kind={kind} row={row} base={base} moneyLabel={moneyLabel} onDone={() => revalidator.revalidate()} />
                ))}
              </tbody>
            </table>
          )}
          {(next || !onFirstPage) && (
            <nav className="pager" aria-label="Страницы">
              {!onFirstPage && (
                <AppLink to={link({})} className="btn btn--ghost">
                  В начало
                </AppLink>
              )}
              {next && (
                <AppLink to={link({ cursor: next })} className="btn btn--ghost">
                  Дальше
                </AppLink>
              )}
            </nav>
          )}
        </>
      )}
    </section>
  );
}

interface QueueRowViewProps {
  kind: ItemKind;
  row: QueueRow;
  /** The queue's own address (its items' edit pages are under it). */
  base: string;
  moneyLabel: string;
  onDone: () => void | Promise<void>;
}

/** One item of a queue: its title, state, category and reason, its owner, money, age and the decisions. */
function QueueRowView({ kind, row, base, moneyLabel, onDone }: QueueRowViewProps) {
  return (
    <tr>
      <td className="queue__title">
        <div className="queue__title-line">
          {isPublic(kind, row.status) ? (
            <AppLink to={publicPath(kind, row)} className="queue__name">
              {row.title}
            </AppLink>
          ) : (
            <span className="queue__name">{row.title}</span>
          )}
          <StatusBadge kind={kind} status={row.status} />
          {Boolean(row.pending_edit) && <span className="badge">Правка на проверке</span>}
        </div>
        <p className="queue__category">{row.category_title}</p>
        {row.reason && <p className="queue__reason">Причина: {row.reason}</p>}
        <AppLink
          to={`${base}/${row._id}/edit`}
          className="queue__edit"
          aria-label={`Редактировать «${row.title}»`}
        >
          <Pencil size={14} aria-hidden="true" /> Редактировать
        </AppLink>
      </td>
      <td data-label="Владелец">
        <AppLink to={`/admin/users/${row.owner._id}`} className="user-cell">
          <Avatar name={displayName(row.owner)} src={row.owner.avatar} size={28} />
          <span>
            {displayName(row.owner)}
            {row.ownerNote && <span className="field__hint queue__note">{row.ownerNote}</span>}
          </span>
        </AppLink>
      </td>
      <td data-label={moneyLabel} className="queue__money">
        {row.money}
      </td>
      <td data-label="Создано">
        <time dateTime={row.created_at} title={formatDate(row.created_at)}>
          {formatRelative(row.created_at)}
        </time>
      </td>
      <td className="queue__actions">
        <ModerationActions kind={kind} item={row} onDone={onDone} compact />
      </td>
    </tr>
  );
}
