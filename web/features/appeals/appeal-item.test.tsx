import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type { Appeal } from '#contract/appeals';
import { APPEAL_STATUS_LABELS, APPEAL_SUBJECT_LABELS } from '#contract/appeal-constants';
import { formatDate } from '../../lib/dates.ts';
import { AppealItem, AppealStatusBadge, AppealTitle } from './appeal-item.tsx';

const person = (id: string, name: string) => ({ _id: id, name, surname: '', user_name: name.toLowerCase(), avatar: null });

function appeal(over: Partial<Appeal> = {}): Appeal {
  return {
    _id: 'a1',
    number: 12,
    subject: 'service',
    object: { type: 'service', _id: 's1', title: 'Логотип', link: '/services/design/s1' },
    text: 'Продавец просит оплату вне сайта',
    files: [],
    status: 'new',
    author: person('u1', 'Анна'),
    admin: null,
    answer: null,
    created_at: '2026-11-20T10:00:00.000Z',
    taken_at: null,
    closed_at: null,
    ...over,
  };
}

const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

describe('AppealTitle', () => {
  it('links the object when it has a page', () => {
    const html = render(<AppealTitle appeal={appeal()} />);
    expect(html).toMatch(new RegExp(`^${APPEAL_SUBJECT_LABELS.service} «<a href="/services/design/s1"[^>]*>Логотип</a>»$`));
  });
  it('names an object without a page in plain text', () => {
    const html = render(<AppealTitle appeal={appeal({ subject: 'order', object: { type: 'order', _id: 'o1', title: 'Заказ №7', link: null } })} />);
    expect(html).toBe(`${APPEAL_SUBJECT_LABELS.order} «Заказ №7»`);
  });
  it('is the subject alone for a question', () => {
    expect(render(<AppealTitle appeal={appeal({ subject: 'question', object: null })} />)).toBe(APPEAL_SUBJECT_LABELS.question);
  });
  it('escapes a title as text', () => {
    const html = render(<AppealTitle appeal={appeal({ object: { type: 'user', _id: 'u', title: '<b>x</b>', link: null }, subject: 'user' })} />);
    expect(html).toContain('«&lt;b&gt;x&lt;/b&gt;»');
  });
});

describe('AppealStatusBadge', () => {
  it.each([
    ['new', 'warning'],
    ['in_progress', 'success'],
    ['closed', 'muted'],
  ] as const)('%s: the %s badge with its label', (status, tone) => {
    expect(renderToStaticMarkup(<AppealStatusBadge status={status} />)).toBe(
      `<span class="badge status-badge status-badge--${tone}">${APPEAL_STATUS_LABELS[status]}</span>`,
    );
  });
});

describe('AppealItem', () => {
  it('shows the number, title, state and text of a new appeal, without an answer', () => {
    const html = render(<AppealItem appeal={appeal()} />);
    expect(html).toContain('data-status="new"');
    expect(html).toContain('№12 · ');
    expect(html).toContain('Продавец просит оплату вне сайта');
    expect(html).toContain(`Отправлено ${formatDate('2026-11-20T10:00:00.000Z')}`);
    expect(html).not.toContain('в работе с');
    expect(html).not.toContain('appeal-answer');
    expect(html).not.toContain('appeal__files');
  });

  it('says since when an appeal is in progress', () => {
    const html = render(<AppealItem appeal={appeal({ status: 'in_progress', taken_at: '2026-11-21T09:00:00.000Z' })} />);
    expect(html).toContain(` · в работе с ${formatDate('2026-11-21T09:00:00.000Z')}`);
  });

  it('no longer says "in progress" once closed, and shows the answer with its date', () => {
    const html = render(
      <AppealItem
        appeal={appeal({ status: 'closed', taken_at: '2026-11-21T09:00:00.000Z', closed_at: '2026-11-22T09:00:00.000Z', answer: 'Услуга скрыта' })}
      />,
    );
    expect(html).not.toContain('в работе с');
    expect(html).toContain('data-testid="appeal-answer"');
    expect(html).toContain(`Ответ администрации · ${formatDate('2026-11-22T09:00:00.000Z')}`);
    expect(html).toContain('Услуга скрыта');
  });

  it('shows an empty answer as given (an answer of "" is still an answer)', () => {
    const html = render(<AppealItem appeal={appeal({ status: 'closed', answer: '' })} />);
    expect(html).toContain('Ответ администрации</p>');
  });

  it('lists the files as links that open apart', () => {
    const files = [
      { url: '/uploads/a.png', name: 'скрин.png', mime: 'image/png', size: 10 },
      { url: '/uploads/b.pdf', name: 'договор.pdf', mime: 'application/pdf', size: 20 },
    ];
    const html = render(<AppealItem appeal={appeal({ files })} />);
    expect(html).toContain('<a href="/uploads/a.png" target="_blank" rel="noreferrer">скрин.png</a>');
    expect(html).toContain('<a href="/uploads/b.pdf" target="_blank" rel="noreferrer">договор.pdf</a>');
  });

  it('renders what it is given below the appeal', () => {
    const html = render(
      <AppealItem appeal={appeal()}>
        <p className="extra">действия</p>
      </AppealItem>,
    );
    expect(html).toMatch(/<p class="extra">действия<\/p><\/article>$/);
  });
});
