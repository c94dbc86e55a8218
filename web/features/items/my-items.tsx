import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { Eye, ImageOff, MessageSquareText, Pause, Pencil, Play, Send, ShoppingBag, Trash2 } from '../../components/ui/icons.tsx';
import type { Project, Service } from '#contract/catalog';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { formatDate, pluralWithCount } from '../../lib/dates.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Picture } from '../../components/ui/picture.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { StatusBadge } from './badges.tsx';
import { projectBudget, servicePrice } from './format.ts';
import { isPublic, projectOwnerActions, publicPath, serviceOwnerActions, type ItemKind } from './status.ts';

const STATUS_DONE = {
  pause: 'Услуга приостановлена: покупатели её не видят',
  resume: 'Услуга снова в каталоге',
  submit: 'Услуга отправлена на модерацию',
} as const;

type Target = { kind: ItemKind; id: string; title: string };

/** The owner's services or projects with their states and what can be done with each. */
export function MyItems({ kind, services, projects }: { kind: ItemKind; services: Service[]; projects: Project[] }) {
  const revalidator = useRevalidator();
  const [deleting, setDeleting] = useState<Target | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function changeStatus(service: Service, action: keyof typeof STATUS_DONE) {
    setBusy(service._id);
    const { error } = await api.write('services.changeStatus', { params: { id: service._id }, body: { action } });
    setBusy(null);
    if (error) return toast(error.message);
    toast(STATUS_DONE[action], { type: 'success' });
    await revalidator.revalidate();
  }

  async function remove() {
    if (!deleting) return;
    setBusy(deleting.id);
    const params = { id: deleting.id };
    const { error } = await (deleting.kind === 'service' ? api.write('services.remove', { params }) : api.write('projects.remove', { params }));
    setBusy(null);
    const kind = deleting.kind;
    setDeleting(null);
    if (error) return toast(error.message);
    toast(kind === 'service' ? 'Услуга удалена' : 'Проект удалён', { type: 'success' });
    await revalidator.revalidate();
  }

  return (
    <>
      <ul className="my-items">
        {kind === 'service'
          ? services.map((s) => (
              <ServiceRow
                key={s._id}
                service={s}
                busy={busy === s._id}
                onStatus={(a) => changeStatus(s, a)}
                onDelete={() => setDeleting({ kind, id: s._id, title: s.title })}
              />
            ))
          : projects.map((p) => (
              <ProjectRow
                key={p._id}
                project={p}
                busy={busy === p._id}
                onDelete={() => setDeleting({ kind, id: p._id, title: p.title })}
              />
            ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.kind === 'project' ? 'Удалить проект?' : 'Удалить услугу?'}
        text={
          deleting && (
            <>
              «{deleting.title}» будет удален{deleting.kind === 'service' ? 'а' : ''} навсегда, вместе с изображениями и
              статистикой. Отменить это нельзя.
            </>
          )
        }
        confirmLabel="Удалить"
        danger
        busy={busy !== null}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/** An objection to a moderator's decision: the appeals tab with its form prefilled (issue 14). */
function ObjectionLink({ id }: { id: string }) {
  return <AppLink to={`/profile/disputes?tab=appeals&subject=moderation&object=${id}`}>Оспорить решение</AppLink>;
}

function Title({
  kind,
  item,
}: {
  kind: ItemKind;
  item: { _id: string; title: string; category: string; status: string };
}) {
  return (
    <h2 className="my-item__title">
      {isPublic(kind, item.status) ? <AppLink to={publicPath(kind, item)}>{item.title}</AppLink> : item.title}
    </h2>
  );
}

function ServiceRow({
  service: s,
  busy,
  onStatus,
  onDelete,
}: {
  service: Service;
  busy: boolean;
  onStatus: (action: 'pause' | 'resume' | 'submit') => void;
  onDelete: () => void;
}) {
  const actions = serviceOwnerActions(s.status);
  return (
    <li className="my-item">
      {s.cover ? (
        <Picture className="my-item__cover" src={s.cover} sizes="120px" alt="" width={120} height={90} />
      ) : (
        <span className="my-item__cover my-item__cover--empty" aria-hidden="true">
          <ImageOff size={24} />
        </span>
      )}
      <div className="my-item__body">
        <div className="my-item__head">
          <Title kind="service" item={s} />
          <StatusBadge kind="service" status={s.status} />
        </div>
        <p className="my-item__meta">
          {s.category_title} · {servicePrice(s)} · {pluralWithCount(s.days, 'день', 'дня', 'дней')}
        </p>
        {s.reject_reason && (s.status === 'rejected' || s.status === 'hidden') && (
          <p className="my-item__reason">
            <strong>{s.status === 'rejected' ? 'Причина отклонения:' : 'Причина скрытия:'}</strong> {s.reject_reason} <ObjectionLink id={s._id} />
          </p>
        )}
        {s.status === 'moderation' && (
          <p className="my-item__hint">Модератор проверит услугу в ближайшее время, мы сообщим о решении письмом.</p>
        )}
        {s.status === 'active' && s.pending_edit && (
          <p className="my-item__hint">Изменения на модерации: покупатели видят прежнюю версию, пока их не одобрят.</p>
        )}
        {s.status === 'active' && !s.pending_edit && s.reject_reason && (
          <p className="my-item__reason">
            <strong>Изменения отклонены:</strong> {s.reject_reason} <ObjectionLink id={s._id} />
          </p>
        )}
        {s.status === 'draft' && (
          <p className="my-item__hint">
            Черновик видите только вы. Отправьте его на модерацию, чтобы услуга появилась в каталоге.
          </p>
        )}
        <ul className="my-item__stats" aria-label="Статистика">
          <li>
            <Eye size={16} aria-hidden="true" /> {pluralWithCount(s.views, 'просмотр', 'просмотра', 'просмотров')}
          </li>
          <li>
            <ShoppingBag size={16} aria-hidden="true" /> {pluralWithCount(s.orders_count, 'заказ', 'заказа', 'заказов')}
          </li>
          <li>Изменена {formatDate(s.updated_at)}</li>
        </ul>
        <div className="my-item__actions">
          {actions.includes('edit') && (
            <AppLink
              to={`/profile/items/${s._id}/edit`}
              className="btn btn--ghost btn--sm"
              aria-label={`Редактировать «${s.title}»`}
            >
              <Pencil size={16} aria-hidden="true" /> Редактировать
            </AppLink>
          )}
          {actions.includes('submit') && (
            <button
              type="button"
              className="btn btn--primary btn--sm"
              onClick={() => onStatus('submit')}
              disabled={busy}
            >
              <Send size={16} aria-hidden="true" /> Отправить на модерацию
            </button>
          )}
          {actions.includes('pause') && (
            <button
              type="button"
              className="btn btn--ghost btn--sm"
              onClick={() => onStatus('pause')}
              disabled={busy}
              aria-label={`Приостановить «${s.title}»`}
            >
              <Pause size={16} aria-hidden="true" /> Приостановить
            </button>
          )}
          {actions.includes('resume') && (
            <button
              type="button"
              className="btn btn--primary btn--sm"
              onClick={() => onStatus('resume')}
              disabled={busy}
              aria-label={`Возобновить «${s.title}»`}
            >
              <Play size={16} aria-hidden="true" /> Возобновить
            </button>
          )}
          {actions.includes('delete') && (
            <button
              type="button"
              className="btn btn--ghost btn--danger-text btn--sm"
              onClick={onDelete}
              disabled={busy}
              aria-label={`Удалить «${s.title}»`}
            >
              <Trash2 size={16} aria-hidden="true" /> Удалить
            </button>
          )}
        </div>
      </div>
    </li>
  );
}

function ProjectRow({ project: p, busy, onDelete }: { project: Project; busy: boolean; onDelete: () => void }) {
  const actions = projectOwnerActions(p.status);
  return (
    <li className="my-item my-item--project">
      <div className="my-item__body">
        <div className="my-item__head">
          <Title kind="project" item={p} />
          <StatusBadge kind="project" status={p.status} />
        </div>
        <p className="my-item__meta">
          {p.category_title} · бюджет {projectBudget(p.budget)}
          {p.days ? ` · ${pluralWithCount(p.days, 'день', 'дня', 'дней')}` : ''}
        </p>
        {p.status === 'hidden' && p.hidden_reason && (
          <p className="my-item__reason">
            <strong>Причина скрытия:</strong> {p.hidden_reason} <ObjectionLink id={p._id} />
          </p>
        )}
        <ul className="my-item__stats" aria-label="Статистика">
          <li>
            <Eye size={16} aria-hidden="true" /> {pluralWithCount(p.views, 'просмотр', 'просмотра', 'просмотров')}
          </li>
          <li>
            <MessageSquareText size={16} aria-hidden="true" />{' '}
            {pluralWithCount(p.bids_count, 'отклик', 'отклика', 'откликов')}
          </li>
          <li>Опубликован {formatDate(p.created_at)}</li>
        </ul>
        {actions.length > 0 && (
          <div className="my-item__actions">
            {actions.includes('edit') && (
              <AppLink
                to={`/profile/items/${p._id}/edit`}
                className="btn btn--ghost btn--sm"
                aria-label={`Редактировать «${p.title}»`}
              >
                <Pencil size={16} aria-hidden="true" /> Редактировать
              </AppLink>
            )}
            {actions.includes('delete') && (
              <button
                type="button"
                className="btn btn--ghost btn--danger-text btn--sm"
                onClick={onDelete}
                disabled={busy}
                aria-label={`Удалить «${p.title}»`}
              >
                <Trash2 size={16} aria-hidden="true" /> Удалить
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
