import type { Letter } from '../../lib/mail.ts';
import { capitalised as cap, orderName, type OrderName } from '#contract/order-name';
import { renderLetter } from './layout.ts';
import type { LetterParams } from './builders.ts';

// The letters about an order, its payment and its dispute, apart from builders.ts for its length; builders.ts
// re-exports them. A stage is named as such everywhere («этап 2 «Макеты» заказа №1042», ADR 065): the whole order's
// words below are orderName's, which keeps a whole order's texts as they were.

/** «Заказ» or «Этап», as the subject of a sentence about what stopped or goes on. */
const noun = (o: OrderName) => (o.stage ? 'Этап' : 'Заказ');

// --- Orders ----------------------------------------------------------------------------------------------

export type OrderLetterEvent =
  | 'created'
  | 'paid'
  | 'delivered'
  | 'revision'
  | 'completed'
  | 'autoCompleted'
  | 'cancelled'
  | 'cancelProposed'
  | 'cancelDeclined';

/** The letter telling a party what happened to an order or a stage (ADR 025): each state change, to whoever must act or know. */
export function orderEventLetter(p: LetterParams & OrderName & { event: OrderLetterEvent; reason?: string | null }): Letter {
  const full = orderName(p);
  const short = orderName(p, 'nom', { title: false });
  const dat = orderName(p, 'dat');
  const parts: Record<OrderLetterEvent, { subject: string; intro: string }> = {
    // A service's order reaches its seller once it is paid (ADR 042).
    created: { subject: `Новый ${short}`, intro: `Вам поступил оплаченный ${full}. Можно приступать к работе — срок идёт.` },
    paid: { subject: `${cap(short)} оплачен`, intro: `${cap(full)} оплачен. Можно приступать к работе — срок идёт.` },
    delivered: { subject: `Работа по ${orderName(p, 'dat', { title: false })} сдана`, intro: `Исполнитель сдал работу по ${dat}. Проверьте и примите её или запросите доработку.` },
    revision: { subject: `Доработка по ${orderName(p, 'dat', { title: false })}`, intro: `Заказчик запросил доработку по ${dat}.` },
    completed: { subject: `${cap(short)} завершён`, intro: `Заказчик принял работу по ${dat}. Оплата зачислена на баланс.` },
    autoCompleted: { subject: `${cap(short)} завершён`, intro: `${cap(full)} принят автоматически: заказчик не ответил вовремя.` },
    cancelled: { subject: `${cap(short)} отменён`, intro: `${cap(full)} отменён. Если он был оплачен, деньги возвращаются заказчику: на баланс, а оплаченные картой — на карту.` },
    cancelProposed: { subject: `Предложение отменить ${short}`, intro: `Вторая сторона предлагает отменить ${full}. Примите или отклоните предложение.` },
    cancelDeclined: { subject: `Отмена ${orderName(p, 'gen', { title: false })} отклонена`, intro: `Ваше предложение отменить ${full} отклонено. Работа продолжается.` },
  };
  const { subject, intro } = parts[p.event];
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject,
    paragraphs: [intro, ...(p.reason ? [`Причина: ${p.reason}`] : [])],
    action: { label: 'Открыть заказ', link: p.link },
  });
}

/**
 * To the customer: the stage before this one completed and this one is still not funded (ADR 065), so its work
 * has not started; to the seller, the same day: wait for the funding before starting.
 */
export function stageFundingLetter(p: LetterParams & OrderName & { seller: boolean }): Letter {
  const full = orderName(p);
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: p.seller ? `${cap(full)} ещё не оплачен` : `Оплатите ${full}`,
    paragraphs: p.seller
      ? [`${cap(full)} ещё не оплачен заказчиком. Начинайте работу по нему после оплаты: до неё деньги за этап не зарезервированы.`, 'Мы напомнили заказчику об оплате.']
      : [`Предыдущий этап завершён. Оплатите ${full}, чтобы исполнитель начал работу.`, 'Деньги хранятся на площадке и перейдут исполнителю только после приёмки этапа.'],
    action: { label: p.seller ? 'Открыть заказ' : 'Оплатить этап', link: p.link },
  });
}

/**
 * The customer's receipt of a payment for an order or a stage (ADR 042): what was paid for, line by line, how and
 * how much. `credited`: it had been paid otherwise meanwhile, so the money went to the balance.
 */
export function paymentReceiptLetter(
  p: LetterParams & OrderName & { lines: string[]; amount: string; method: string; fee: string | null; paidAt: string; credited: boolean },
): Letter {
  const full = orderName(p);
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Оплата ${orderName(p, 'gen', { title: false })} получена`,
    paragraphs: [
      p.credited
        ? `Мы получили ваш платёж за ${full}. ${noun(p)} к этому времени уже был оплачен, поэтому деньги зачислены на ваш баланс.`
        : `${cap(full)} оплачен. Деньги хранятся на площадке и перейдут исполнителю только после приёмки работы.`,
      [p.stage ? `Назначение: Оплата ${orderName(p, 'gen')}` : 'Состав заказа:', ...p.lines].join('\n'),
      [`Сумма: ${p.amount}`, ...(p.fee ? [`В том числе комиссия способа оплаты: ${p.fee}`] : []), `Способ оплаты: ${p.method}`, `Дата: ${p.paidAt}`].join('\n'),
    ],
    action: { label: 'Открыть заказ', link: p.link },
    notes: ['Сохраните это письмо: оно подтверждает оплату.'],
  });
}

// --- Disputes (ADR 034) ------------------------------------------------------------------------------------

export type DisputeLetterEvent = 'opened' | 'cancelled' | 'resolved';

/** A dispute over the addressee's order (or one stage of it) was opened by the other party, cancelled by its opener, or decided. */
export function disputeEventLetter(p: LetterParams & OrderName & { event: DisputeLetterEvent; decision: string | null }): Letter {
  const dat = orderName(p, 'dat');
  const datShort = orderName(p, 'dat', { title: false });
  const parts: Record<DisputeLetterEvent, { subject: string; intro: string }> = {
    opened: { subject: `Спор по ${datShort}`, intro: `Другая сторона открыла спор по ${dat}. ${noun(p)} остановлен до решения арбитража; изложите свою позицию в чате спора.` },
    cancelled: { subject: `Спор по ${datShort} отменён`, intro: `Заявка на спор по ${dat} отменена. ${noun(p)} продолжается с того места, где остановился.` },
    resolved: { subject: `Решение по спору, ${orderName(p, 'nom', { title: false })}`, intro: `Арбитраж принял решение по спору ${orderName(p, 'about')}.` },
  };
  const { subject, intro } = parts[p.event];
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject,
    paragraphs: [intro, ...(p.decision ? [p.decision] : [])],
    action: { label: 'Открыть спор', link: p.link },
  });
}
