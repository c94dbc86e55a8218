import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { Appeal } from '#contract/appeals';
import { api } from '../../lib/api.ts';
import { LIVE_KINDS, useOnNotification } from '../../lib/live-refresh.ts';
import { AppealForm } from './appeal-form.tsx';
import { AppealItem } from './appeal-item.tsx';
import { appealsPath } from './format.ts';
import '../../styles/items.css';
import '../../styles/appeals.css';
import { ShowMore } from '../../components/ui/show-more.tsx';

// The «Обращения» tab of /profile/disputes (issue 14): the person's appeals with their states and the
// administration's answers, and «Новое обращение» — prefilled when the address names a subject and an object
// (a «Пожаловаться» link: ?tab=appeals&subject=service&object=<id>).

interface List {
  appeals: Appeal[];
  next: string | null;
}

const load = (cursor?: string) => api.read('appeals.mine', { query: { limit: 10, ...(cursor ? { cursor } : {}) } }, { fresh: true });

export function MyAppeals() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const subject = params.get('subject');
  const object = params.get('object');
  // Open for a prefilled subject; a new «Пожаловаться» link followed while the tab is open opens the form again.
  const formKey = `${subject}:${object}`;
  const [opened, setOpened] = useState({ key: formKey, open: subject !== null });
  const formOpen = opened.key === formKey ? opened.open : subject !== null;
  const setFormOpen = (open: boolean) => setOpened({ key: formKey, open });
  const [list, setList] = useState<List | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    let live = true;
    load().then(
      (res) => live && setList({ appeals: res.result, next: res.next }),
      () => live && setFailed(true),
    );
    return () => void (live = false);
  }, [attempt]);
  const reload = () => {
    setFailed(false);
    setAttempt((n) => n + 1);
  };
  // The administration's answer shows here without a reload.
  useOnNotification(LIVE_KINDS.appeals, reload);

  async function loadMore() {
    if (!list?.next) return;
    setLoadingMore(true);
    try {
      const res = await load(list.next);
      setList({ appeals: [...list.appeals, ...res.result], next: res.next });
    } finally {
      setLoadingMore(false);
    }
  }

  function closeForm() {
    setFormOpen(false);
    // The prefilled subject belongs to that one form.
    if (subject !== null) void navigate(appealsPath(), { replace: true, preventScrollReset: true });
  }

  return (
    <div className="appeals">
      <div className="appeals__intro">
        <p className="muted">Обращения читает администрация: жалобы, несогласие с решениями и вопросы. Ответ придёт в уведомлениях и на почту.</p>
        {!formOpen && (
          <button type="button" className="btn btn--primary" onClick={() => setFormOpen(true)}>
            Новое обращение
          </button>
        )}
      </div>
      {formOpen && (
        <AppealForm
          key={formKey}
          subject={subject}
          object={object}
          onCancel={closeForm}
          onDone={(appeal) => {
            setList((l) => ({ appeals: [appeal, ...(l?.appeals ?? [])], next: l?.next ?? null }));
            closeForm();
          }}
        />
      )}
      {failed ? (
        <div className="empty-state" role="alert">
          <p>Не удалось загрузить обращения.</p>
          <button type="button" className="btn btn--primary" onClick={reload}>
            Повторить
          </button>
        </div>
      ) : !list ? (
        [0, 1].map((i) => <div key={i} className="skeleton" style={{ height: 120, marginBottom: 12 }} aria-busy="true" />)
      ) : list.appeals.length === 0 ? (
        !formOpen && (
          <div className="empty-state">
            <p>Обращений пока нет. Пожаловаться на услугу, проект, пользователя или заказ можно кнопкой «Пожаловаться» на его странице.</p>
          </div>
        )
      ) : (
        <>
          <h2 className="appeals__heading">Мои обращения</h2>
          <ul className="appeals__list">
            {list.appeals.map((a) => (
              <li key={a._id}>
                <AppealItem appeal={a} />
              </li>
            ))}
          </ul>
          {list.next && (
            <ShowMore busy={loadingMore} onClick={() => void loadMore()} />
          )}
        </>
      )}
    </div>
  );
}
