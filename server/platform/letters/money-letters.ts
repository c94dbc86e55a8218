import type { Letter } from '../../lib/mail.ts';
import { renderLetter } from './layout.ts';
import type { LetterParams } from './builders.ts';
import { capitalised as cap, orderName, type OrderName } from '#contract/order-name';

// The money letters (withdrawals, refunds, payouts, the safe deal's lifetime), apart from builders.ts for its
// length; builders.ts re-exports them, so every letter is still imported from one place.

// --- Money (issue 12) ------------------------------------------------------------------------------------

export type WithdrawalDecision = 'approve' | 'reject';

/** The letter telling a person what an admin decided about their withdrawal. */
export function withdrawalDecisionLetter(
  p: LetterParams & { amount: string; decision: WithdrawalDecision; reason?: string | null },
): Letter {
  const approved = p.decision === 'approve';
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: approved ? `Вывод ${p.amount} одобрен` : `Вывод ${p.amount} отклонён`,
    paragraphs: approved
      ? [`Заявка на вывод ${p.amount} одобрена: деньги отправлены на указанные реквизиты.`]
      : [
          `Заявка на вывод ${p.amount} отклонена, деньги вернулись на ваш баланс.`,
          ...(p.reason ? [`Причина: ${p.reason}`] : []),
        ],
    action: { label: 'Финансы', link: p.link },
  });
}

/** To a customer: the provider refused a refund to their card (ADR 051); the money is on their balance instead. */
export function refundRefusedLetter(p: LetterParams & OrderName & { amount: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Возврат ${p.amount} зачислен на баланс`,
    paragraphs: [
      `Платёжная система не приняла возврат ${p.amount} на вашу карту по ${orderName(p, 'dat')}.`,
      'Деньги не потеряны: они зачислены на ваш баланс. Ими можно оплатить заказ или вывести их.',
    ],
    action: { label: 'Финансы', link: p.link },
  });
}

/** To a seller: their share of a card-paid order waits in its safe deal for a card or wallet to go to (ADR 053). */
export function payoutDetailsLetter(p: LetterParams & OrderName & { amount: string; returned: boolean }): Letter {
  const short = orderName(p, 'nom', { title: false });
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Укажите, куда перевести ${p.amount} за ${short}`,
    paragraphs: [
      p.returned
        ? `Платёжная система не смогла перевести ${p.amount} за ${short} на указанные реквизиты.`
        : `${cap(short)} завершён. Оплата картой хранится в безопасной сделке ЮKassa и переводится исполнителю напрямую.`,
      'Укажите банковскую карту или кошелёк ЮMoney на странице «Финансы» — деньги уйдут сразу. До этого они надёжно хранятся в сделке.',
    ],
    action: { label: 'Указать реквизиты', link: p.link },
  });
}

/**
 * To a party of a card-paid order whose safe deal ends soon (ADR 058): ЮKassa returns what the deal still holds to the
 * customer's card on `date`. `payout`: to a seller whose payout waits for a card or wallet; else the order is open.
 */
export function dealEndingLetter(
  p: LetterParams & OrderName & { date: string; payout: boolean; amount: string },
): Letter {
  const job = p.stage ? 'этап' : 'заказ';
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: p.payout
      ? `Укажите реквизиты до ${p.date}: иначе ${p.amount} вернутся заказчику`
      : `Безопасная сделка по ${orderName(p, 'dat', { title: false })} закончится ${p.date}`,
    paragraphs: p.payout
      ? [
          `Оплата ${p.amount} за ${orderName(p)} ждёт в безопасной сделке ЮKassa, куда её перевести.`,
          `Сделка действует до ${p.date}. Если до этого дня не указать карту или кошелёк ЮMoney, ЮKassa вернёт деньги заказчику, и получить их будет нельзя.`,
        ]
      : [
          `Оплата ${orderName(p, 'gen')} хранится в безопасной сделке ЮKassa до ${p.date}.`,
          `Если ${job} не будет завершён до этого дня, ЮKassa сама вернёт оплату на карту заказчика, и ${job} будет отменён.`,
        ],
    action: { label: p.payout ? 'Указать реквизиты' : 'Открыть заказ', link: p.link },
  });
}

/** To a party of an order whose safe deal ended with money in it (ADR 058): ЮKassa returned it to the customer's card. */
export function dealEndedLetter(p: LetterParams & OrderName & { amount: string; seller: boolean }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Срок безопасной сделки по ${orderName(p, 'dat', { title: false })} истёк`,
    paragraphs: [
      p.seller
        ? `Реквизиты для выплаты за ${orderName(p)} не были указаны до конца срока безопасной сделки ЮKassa, и ЮKassa вернула ${p.amount} на карту заказчика.`
        : `Срок безопасной сделки ЮKassa по ${orderName(p, 'dat')} истёк, и ЮKassa вернула ${p.amount} на вашу карту.`,
      'Если это ошибка, напишите в поддержку.',
    ],
    action: { label: 'Финансы', link: p.link },
  });
}
