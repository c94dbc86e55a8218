import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { orderDetailSchema, type OrderDetail, type OrderStageDetail } from '#contract/orders';
import { cardSteps } from './card-steps.ts';
import { OrderFacts } from './order-card-parts.tsx';
import { StageTimeline } from './stage-timeline.tsx';
import { AdminStages } from './admin-stages.tsx';
import { currentStage, stageCountText, stageFunds, stepWords } from './stage-facts.ts';

const _ = '\u00a0';
const noop = () => {};

function inShell(node: React.ReactNode) {
  const Stub = createRoutesStub([{ id: 'root', path: '/', Component: () => <>{node}</> }]);
  const root = { config: {}, user: null, catalogueUrl: '', rates: { USDT: 0, BTC: 0 } };
  return renderToStaticMarkup(<Stub initialEntries={['/']} hydrationData={{ loaderData: { root } }} />).replace(/<!-- -->/g, '');
}

const party = (id: string) => ({ _id: id, name: id, surname: '', user_name: id, avatar: null });
const base = {
  customer: party('c1'),
  seller: party('s1'),
  service_id: null,
  project_id: 'p1',
  package: null,
  extras: [],
  revisions_left: 2,
  revisions_total: 2,
  settlement: null,
  chat_id: 'ch1',
  cancel_window_ends_at: null,
  auto_accept_at: null,
  cancel_proposal: null,
  cancelled_by: null,
  cancel_reason: null,
  paid_at: null,
  deadline_at: null,
  delivered_at: null,
  completed_at: null,
  cancelled_at: null,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
};

type StageOver = Partial<OrderStageDetail> & { funds?: NonNullable<OrderStageDetail['stage']>['funds']; released?: number; refunded?: number };

const stage = (n: number, over: StageOver = {}) => {
  const { funds = 'unfunded', released = 0, refunded = 0, ...rest } = over;
  return {
    ...base,
    _id: `st${n}`,
    number: 1042 + n,
    title: `Сайт · этап ${n}`,
    status: 'awaiting_payment',
    price: 500_000,
    days: 5,
    commission: 75_000,
    role: 'customer',
    actions: [],
    stage: { head_id: 'h1', head_number: 1042, number: n, title: ['Макеты', 'Вёрстка', 'Запуск'][n - 1] ?? `Этап ${n}`, deliverable: `Результат ${n}`, funds, released, refunded },
    stage_count: 0,
    deliveries: [],
    ...rest,
  };
};

/** A head of three stages, parsed through the contract's schema so that a drift of the fixture fails the test. */
function head(stages: ReturnType<typeof stage>[], over: Partial<OrderDetail> = {}): OrderDetail {
  return orderDetailSchema.parse({
    ...base,
    _id: 'h1',
    number: 1042,
    title: 'Сайт',
    status: 'delivered',
    price: stages.reduce((s, x) => s + x.price, 0),
    days: 15,
    commission: 0,
    role: stages[0]!.role,
    actions: [],
    stage: null,
    stage_count: stages.length,
    deliveries: [],
    stages,
    ...over,
  });
}

const delivery = { _id: 'd1', message: 'Вёрстка готова, смотрите ссылку', files: [{ url: '/uploads/a/site.zip', name: 'site.zip', mime: 'application/zip', size: 10 }], created_at: '2026-11-22T10:00:00Z' };

const customerHead = () =>
  head([
    stage(1, { status: 'completed', funds: 'released', released: 500_000, actions: [] }),
    stage(2, { status: 'delivered', funds: 'held', paid_at: '2026-11-21T10:00:00Z', deadline_at: '2099-01-01T00:00:00Z', auto_accept_at: '2099-01-04T00:00:00Z', actions: ['accept', 'revision', 'propose_cancel'], deliveries: [delivery] }),
    stage(3, { status: 'awaiting_payment', funds: 'unfunded', actions: ['pay', 'cancel'] }),
  ]);

/** The markup of one stage's item (its <li>), by the stage's number. */
const item = (html: string, n: number) => {
  const items = html.split('<li class="stage-timeline__item').slice(1);
  return items[n - 1]!;
};

describe('the stages’ timeline', () => {
  it('shows each stage with its number, title, amount, term, state and money; the current one open', () => {
    const order = customerHead();
    const html = inShell(<StageTimeline stages={order.stages!} busy={false} open={noop} answer={noop} />);
    expect(html).toContain('<ol class="stage-timeline" aria-label="Этапы заказа"');
    const [one, two, three] = [item(html, 1), item(html, 2), item(html, 3)];
    expect(one).toMatch(/^ stage-timeline__item--completed" data-testid="stage"><details class="stage">/);
    expect(one).toContain('<span class="stage__number">Этап 1</span> <span class="stage__title">Макеты</span>');
    expect(one).toContain('Выплачено продавцу');
    expect(one).toContain('status-badge--success">Завершён</span>');
    // The current stage: the first neither completed nor cancelled, open and marked.
    expect(two).toMatch(/^ stage-timeline__item--delivered stage-timeline__item--current" data-testid="stage"><details class="stage" open="">/);
    expect(two).toContain(`<span class="price stage__price">5${_}000${_}руб.</span>`);
    expect(two).toContain('В резерве');
    expect(two).toContain('Результат этапа:</span> Результат 2');
    expect(two).toContain('автоприёмка через');
    expect(three).toMatch(/^ stage-timeline__item--awaiting_payment" data-testid="stage"><details class="stage">/);
    expect(three).toContain(`<span class="stage__term">5${_}дней</span>`);
    expect(three).toContain('<span class="badge status-badge stage__funds status-badge--warning">Не оплачен</span>');
  });

  it('gives the customer each stage’s own steps, said of a stage, on that stage’s id', () => {
    const order = customerHead();
    const html = inShell(<StageTimeline stages={order.stages!} busy={false} open={noop} answer={noop} />);
    const [one, two, three] = [item(html, 1), item(html, 2), item(html, 3)];
    expect(one).not.toContain('btn');
    expect(two).toContain('>Принять этап</button>');
    expect(two).toContain('>Запросить доработку</button>');
    expect(two).toContain('>Предложить отмену</button>');
    expect(two).toContain('>Открыть спор по этапу</button>');
    expect(two).not.toContain('Оплатить');
    expect(three).toContain('<a class="btn btn--primary btn--sm" href="/payments/st3"');
    expect(three).toContain('>Оплатить этап</a>');
    expect(three).toContain('>Снять этап</button>');
    expect(three).not.toContain('спор');
  });

  it('shows a stage’s deliveries under that stage only', () => {
    const html = inShell(<StageTimeline stages={customerHead().stages!} busy={false} open={noop} answer={noop} />);
    expect(item(html, 2)).toContain('<span class="stage__delivery-text">Вёрстка готова, смотрите ссылку</span>');
    expect(item(html, 2)).toContain('<a href="/uploads/a/site.zip" target="_blank" rel="noreferrer">site.zip</a>');
    expect(item(html, 1)).not.toContain('stage__delivery');
    expect(item(html, 3)).not.toContain('stage__delivery');
  });

  it('gives the seller the delivery of the current stage, what they will get, and «Отменить этап» on a funded one', () => {
    const order = head([
      stage(1, { role: 'seller', status: 'in_progress', funds: 'held', deadline_at: '2099-01-01T00:00:00Z', actions: ['deliver', 'cancel'] }),
      stage(2, { role: 'seller', actions: ['cancel'] }),
    ], { status: 'in_progress' });
    const html = inShell(<StageTimeline stages={order.stages!} busy={false} open={noop} answer={noop} />);
    expect(item(html, 1)).toContain('open=""');
    expect(item(html, 1)).toContain('>Сдать этап</button>');
    expect(item(html, 1)).toContain('>Отменить этап</button>');
    expect(item(html, 1)).toContain('>Открыть спор по этапу</button>');
    expect(item(html, 1)).toContain(`Вы получите <span class="price">4${_}250${_}руб.</span>`);
    expect(item(html, 1)).toContain('Доработок осталось: 2');
    expect(item(html, 1)).toContain('до срока');
    expect(item(html, 2)).not.toContain('open=""');
    expect(item(html, 2)).toContain('>Снять этап</button>');
  });

  it('answers a proposal to cancel a stage with buttons disabled while a step is sent, and says it is about the stage', () => {
    const order = head([
      stage(1, {
        role: 'seller',
        status: 'in_progress',
        funds: 'held',
        actions: ['answer_cancel', 'deliver'],
        cancel_proposal: { by: 'c1', at: '2026-11-22T10:00:00Z', reason: 'Передумали' },
      }),
      stage(2, { role: 'seller' }),
    ], { status: 'in_progress' });
    const html = inShell(<StageTimeline stages={order.stages!} busy open={noop} answer={noop} />);
    expect(item(html, 1)).toContain('Вам предлагают отменить этап 1. Причина: Передумали');
    expect(item(html, 1)).toContain('disabled="">Согласиться на отмену</button>');
    expect(item(html, 1)).toContain('disabled="">Отклонить отмену</button>');
  });

  it('says where each stage’s money went, a dispute’s split to the kopeck', () => {
    expect(stageFunds({ funds: 'split', released: 150_000, refunded: 350_050 }).text).toBe(`Разделено: 1${_}500${_}руб. продавцу, 3${_}500,50${_}руб. заказчику`);
    expect(stageFunds({ funds: 'refunded', released: 0, refunded: 500_000 }).text).toBe('Возвращено заказчику');
    expect(stageFunds({ funds: 'dropped', released: 0, refunded: 0 }).text).toBe('Снят до оплаты');
    const order = head([stage(1, { status: 'disputed', funds: 'held' }), stage(2, { status: 'cancelled', funds: 'dropped' })], { status: 'disputed' });
    const html = inShell(<StageTimeline stages={order.stages!} busy={false} open={noop} answer={noop} />);
    expect(item(html, 1)).toContain('По этапу открыт спор');
    expect(item(html, 1)).toContain('open=""');
    expect(item(html, 2)).toContain('Снят до оплаты');
  });

  it('opens none once every stage is over', () => {
    const order = head([stage(1, { status: 'completed', funds: 'released' }), stage(2, { status: 'cancelled', funds: 'dropped' })], { status: 'completed' });
    expect(currentStage(order.stages!)).toBeNull();
    expect(inShell(<StageTimeline stages={order.stages!} busy={false} open={noop} answer={noop} />)).not.toContain('open=""');
  });
});

describe('the head of an order in stages', () => {
  it('offers no step of its own: no payment, no cancelling, no dispute (each is a stage’s)', () => {
    const order = customerHead();
    expect(cardSteps(order)).toEqual([]);
    expect(cardSteps({ ...order, status: 'in_progress' })).toEqual([]);
    // A one-stage order in the same state still offers its dispute.
    expect(cardSteps({ ...order, status: 'in_progress', stage_count: 0 }).map((s) => s.label)).toEqual(['Открыть спор']);
  });

  it('shows its price with the number of stages, and leaves revisions and earnings to the stages', () => {
    const order = head([stage(1, { role: 'seller', status: 'in_progress', funds: 'held' }), stage(2, { role: 'seller' })], { status: 'in_progress', role: 'seller', commission: 150_000 });
    const html = inShell(<OrderFacts order={order} />);
    expect(html).toContain(`<span class="order-card__note">2${_}этапа</span>`);
    expect(html).not.toContain('Доработок');
    expect(html).not.toContain('Вы получите');
    expect(stageCountText({ stage_count: 5 })).toBe(`5${_}этапов`);
    expect(stageCountText({ stage_count: 0 })).toBeNull();
  });

  it('names the stage in the dialogs: dropping an unfunded stage, cancelling a funded one, its dispute', () => {
    const [, two, three] = customerHead().stages!;
    expect(stepWords(three!)).toMatchObject({ cancelTitle: 'Снять этап 3 «Запуск»?', cancel: 'Снять этап', cancelled: 'Этап снят' });
    expect(stepWords(three!).dropNote).toContain('деньги не двигаются');
    expect(stepWords(two!)).toMatchObject({ cancelTitle: 'Отменить этап 2 «Вёрстка»?', dispute: 'Спор по этапу 2 заказа №1042', dropNote: null, deliver: 'Сдать этап' });
    expect(stepWords({ number: 7, stage: null })).toMatchObject({ cancelTitle: 'Отменить заказ?', dispute: 'Спор по заказу №7', deliver: 'Сдать работу' });
  });
});

describe('the admin’s table of a head’s stages', () => {
  it('lists each stage with its number, price, deadline, state and money', () => {
    const order = head([
      stage(1, { status: 'completed', funds: 'released', released: 500_000 }),
      stage(2, { status: 'completed', funds: 'split', released: 150_000, refunded: 350_000, deadline_at: '2026-12-01T10:00:00Z' }),
      stage(3, { status: 'cancelled', funds: 'dropped' }),
    ], { status: 'completed', role: null });
    const html = inShell(<AdminStages stages={order.stages!} />);
    const rows = html.split('<tr>').slice(2);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('1. Макеты <span class="field__hint">(№1043)</span>');
    expect(rows[0]).toContain('Выплачено продавцу');
    expect(rows[1]).toContain(`<td data-label="Деньги">Разделено: 1${_}500${_}руб. продавцу, 3${_}500${_}руб. заказчику</td>`);
    expect(rows[1]).toContain('1 декабря 2026');
    expect(rows[2]).toContain('status-badge--muted">Отменён</span>');
    expect(rows[2]).toContain('Снят до оплаты');
  });
});
