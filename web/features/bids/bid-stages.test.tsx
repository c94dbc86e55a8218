import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { bidInputSchema, bidSchema, STAGE_MESSAGES, type Bid } from '#contract/bids';
import { BidCard } from './bid-card.tsx';
import { BidForm } from './bid-form.tsx';
import { checkBid, checkBidForm, checkStages, stageDrafts, stageTotals, type StageDraft } from './bid-rules.ts';

// A bid in stages (ADR 065): the seller's form checks the stages as the server does and sends them; the customer
// sees them on the bid's card.

const _ = '\u00a0';
const comment = 'Сделаю за пятнадцать дней, опыт в вёрстке семь лет, покажу похожие работы.';
const form = { price: '15 000', days: '15', comment };
const draft = (title: string, amount: string, days: string, deliverable = `Результат: ${title}`): StageDraft => ({ title, deliverable, amount, days });
const three = [draft('Макеты', '5000', '5'), draft('Вёрстка', '7 000,50', '7'), draft('Запуск', '2999,50', '3')];

function inShell(node: React.ReactNode) {
  const Stub = createRoutesStub([{ id: 'root', path: '/', Component: () => <>{node}</> }]);
  const root = { config: {}, user: null, catalogueUrl: '', rates: { USDT: 0, BTC: 0 } };
  return renderToStaticMarkup(<Stub initialEntries={['/']} hydrationData={{ loaderData: { root } }} />).replace(/<!-- -->/g, '');
}

describe('the bid form’s stages', () => {
  it('sends the stages in kopecks with the bid, as the contract’s schema takes them', () => {
    const { errors, body } = checkBidForm(form, three);
    expect(errors).toEqual({});
    expect(body).toEqual({
      price: 1_500_000,
      days: 15,
      comment,
      stages: [
        { title: 'Макеты', deliverable: 'Результат: Макеты', amount: 500_000, days: 5 },
        { title: 'Вёрстка', deliverable: 'Результат: Вёрстка', amount: 700_050, days: 7 },
        { title: 'Запуск', deliverable: 'Результат: Запуск', amount: 299_950, days: 3 },
      ],
    });
    expect(bidInputSchema.safeParse(body).success).toBe(true);
  });

  it('sends exactly today’s body when the bid is not split', () => {
    const whole = checkBidForm(form, null);
    expect(whole).toEqual(checkBid(form));
    expect(whole.body).not.toHaveProperty('stages');
  });

  it('refuses sums that differ from the bid’s price and term, with the server’s messages', () => {
    const { errors } = checkStages([draft('Макеты', '5000', '5'), draft('Вёрстка', '9000', '9')], 1_500_000, 15);
    expect(errors).toEqual({ stages: [STAGE_MESSAGES.sumPrice, STAGE_MESSAGES.sumDays] });
    // The server's superRefine says the same of the same stages.
    const server = bidInputSchema.safeParse({ price: 1_500_000, days: 15, comment, stages: [
      { title: 'Макеты', deliverable: 'x', amount: 500_000, days: 5 },
      { title: 'Вёрстка', deliverable: 'x', amount: 900_000, days: 9 },
    ] });
    expect(server.error?.issues.map((i) => i.message)).toEqual([STAGE_MESSAGES.sumPrice, STAGE_MESSAGES.sumDays]);
  });

  it('names each stage’s wrong field as the server does (stages.N.field)', () => {
    const { errors, stages } = checkStages([draft('', '5000', '5'), draft('Вёрстка', '100', 'три', '')], 1_500_000, 15);
    expect(errors['stages.0.title']).toEqual(['Назовите этап']);
    expect(errors['stages.1.deliverable']).toEqual(['Опишите, что сдаётся по этапу']);
    expect(errors['stages.1.amount']).toEqual([`Сумма этапа — от 500${_}руб.`]);
    expect(errors['stages.1.days']).toEqual(['Укажите срок этапа']);
    expect(stages).toEqual([]);
  });

  it('asks for 2 to 20 stages', () => {
    expect(checkStages([draft('Всё', '15000', '15')], 1_500_000, 15).errors).toEqual({ stages: ['Этапов — от 2'] });
    const many = Array.from({ length: 21 }, (_, i) => draft(`Этап ${i}`, '500', '1'));
    expect(checkStages(many, 1_050_000, 21).errors).toEqual({ stages: ['Этапов — не больше 20'] });
  });

  it('does not compare the sums with a price or a term that are wrong themselves', () => {
    const { errors } = checkBidForm({ ...form, price: 'пять', days: '' }, three);
    expect(errors.price).toEqual(['Укажите цену в рублях']);
    expect(errors.days).toHaveLength(1);
    expect(errors.stages).toBeUndefined();
  });

  it('totals what is typed, and reads a bid’s stages back into the form', () => {
    expect(stageTotals([...three, draft('', 'x', '')])).toEqual({ amount: 1_500_000, days: 15 });
    expect(stageDrafts([{ title: 'Макеты', deliverable: 'PSD', amount: 700_050, days: 7 }])).toEqual([{ title: 'Макеты', deliverable: 'PSD', amount: '7000,50', days: '7' }]);
  });
});

const bid = (over: Partial<Bid> = {}): Bid =>
  bidSchema.parse({
    _id: 'b1',
    project_id: 'p1',
    price: 1_500_000,
    days: 15,
    comment,
    stages: [
      { title: 'Макеты', deliverable: 'Макеты главной и каталога', amount: 500_000, days: 5 },
      { title: 'Вёрстка', deliverable: 'Вёрстка всех страниц', amount: 1_000_000, days: 10 },
    ],
    status: 'active',
    created_at: '2026-11-24T10:00:00Z',
    updated_at: '2026-11-24T10:00:00Z',
    seller: { _id: 's1', user_name: 'petr', name: 'Пётр', surname: '', avatar: null, level: 'new', rating: 0, reviews_count: 0, orders_count: 0, online_status: false },
    project: { _id: 'p1', title: 'Лендинг', status: 'active', category: 'web', customer_id: 'c1' },
    ...over,
  });

describe('a bid in stages as shown', () => {
  it('lists its stages on the card, each with its amount, days and what it hands over', () => {
    const html = inShell(<BidCard bid={bid()} show="seller" />);
    expect(html).toContain('<ol class="bid-card__stages" aria-label="Этапы работы">');
    expect(html).toContain(`<li>Макеты — <span class="bid-card__stage-terms"><span class="price">5${_}000${_}руб.</span>, 5${_}дней</span><span class="bid-card__stage-deliverable">Макеты главной и каталога</span></li>`);
    expect(html).toContain('Вёрстка всех страниц');
    expect(inShell(<BidCard bid={bid({ stages: null })} show="seller" />)).not.toContain('bid-card__stages');
  });

  it('opens the seller’s edit of a bid in stages with the stages filled in, and a new bid unsplit', () => {
    const edit = inShell(<BidForm projectId="p1" bid={bid()} onSaved={() => {}} />);
    expect(edit).toContain('<input type="checkbox" name="split" checked=""/>');
    expect(edit).toContain('<legend class="bid-stages__legend">Этапы работы</legend>');
    expect(edit).toMatch(/name="stages\.1\.title"[^>]*value="Вёрстка"/);
    expect(edit).toMatch(/name="stages\.1\.amount"[^>]*value="10000"/);
    expect(edit).toContain(`Итого по этапам: 15${_}000${_}руб. из 15${_}000${_}руб., 15${_}дней из 15`);
    expect(edit).not.toContain('bid-stages__total--off');
    const fresh = inShell(<BidForm projectId="p1" onSaved={() => {}} />);
    expect(fresh).toContain('<input type="checkbox" name="split"/>');
    expect(fresh).not.toContain('bid-stages');
  });
});
