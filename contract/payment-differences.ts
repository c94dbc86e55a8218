import { z } from 'zod';

// The daily reconciliation with the payment providers (issue 27): what it can find, in the admin's words, and
// what to do about each. The operator guide (docs/payments.md) says the same at more length.

export const DIFFERENCE_KINDS = ['unsettled', 'not_at_provider', 'amount', 'unknown', 'ledger', 'payout_unsettled', 'payout_returned', 'payout_not_at_provider', 'payout_unknown'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/** Each kind's name and «что делать». */
export const DIFFERENCE_TEXTS: Record<DifferenceKind, { title: string; todo: string; serious: boolean }> = {
  unsettled: {
    title: 'Оплачен у провайдера, но не зачислен у нас',
    todo:
      'Провайдер подтвердил оплату, а у нас платёж ещё не проведён. Чаще всего опрос провайдера (раз в минуту) просто не успел или уведомление ' +
      'задержалось — проверьте через несколько минут. Если расхождение осталось, нажмите «Применить результат провайдера»: деньги будут зачислены ' +
      'так же, как по уведомлению провайдера (заказ будет оплачен, если ещё ждёт оплаты, иначе деньги поступят на баланс покупателя).',
    serious: false,
  },
  not_at_provider: {
    title: 'Зачислен у нас, но не оплачен у провайдера',
    todo:
      'Серьёзно: в учёте есть деньги, которых у провайдера нет. Не выплачивайте деньги по этому заказу и не одобряйте выводы покупателя, пока не ' +
      'разберётесь. Откройте платёж в кабинете провайдера («Состояние у провайдера»); если оплаты действительно нет — передайте разработчикам: нужна ' +
      'корректирующая проводка и разбор журнала вебхуков. Отметьте решённым, описав, что сделано.',
    serious: true,
  },
  amount: {
    title: 'Сумма у провайдера другая',
    todo:
      'Провайдер сообщает другую поступившую сумму. Если у провайдера больше (например, доплата после срока), нажмите «Применить результат ' +
      'провайдера» — разница поступит на баланс покупателя. Если у провайдера меньше — это деньги в учёте, которых нет: сверьте платёж в кабинете ' +
      'провайдера и передайте разработчикам для корректирующей проводки.',
    serious: true,
  },
  unknown: {
    title: 'Платёж у провайдера не связан с нашим',
    todo:
      'У провайдера есть оплаченный платёж, который не называет ни одного нашего платежа (создан вручную в кабинете провайдера или другой программой). ' +
      'Выясните в кабинете провайдера, чей он; если деньги пришли по ошибке — верните их через кабинет провайдера. Отметьте решённым с описанием.',
    serious: false,
  },
  ledger: {
    title: 'Учёт не сходится с поступлением',
    todo:
      'Платёж проведён, но поступления по нему в учёте (проводки payment:…) не равны тому, что пришло от провайдера. Запустите npm run ledger:check ' +
      'и передайте расхождение разработчикам: исправляют корректирующей проводкой, не правкой данных.',
    serious: true,
  },
  payout_unsettled: {
    title: 'Выплата отправлена провайдером, но вывод у нас ещё «Отправляется»',
    todo:
      'Провайдер выполнил выплату, а заявка на вывод у нас ещё не закрыта. Обычно опрос выплат (раз в минуту) просто не успел — проверьте через ' +
      'несколько минут. Если расхождение осталось, нажмите «Применить результат провайдера»: вывод будет отмечен выполненным.',
    serious: false,
  },
  payout_returned: {
    title: 'Выплата выполнена провайдером, а у нас деньги вернулись на баланс',
    todo:
      'Серьёзно: продавец получил деньги, и они же лежат у него на балансе. Заблокируйте его новые выводы, сверьте выплату в кабинете провайдера ' +
      'и передайте разработчикам: нужна корректирующая проводка. Отметьте решённым, описав, что сделано.',
    serious: true,
  },
  payout_not_at_provider: {
    title: 'Вывод у нас выполнен, а выплата у провайдера отменена',
    todo:
      'Серьёзно: по учёту деньги ушли продавцу, а провайдер выплату отменил. Свяжитесь с продавцом, проверьте выплату в кабинете провайдера; ' +
      'вернуть деньги на баланс можно только корректирующей проводкой — передайте разработчикам.',
    serious: true,
  },
  payout_unknown: {
    title: 'Выплата у провайдера не связана с нашими выводами',
    todo:
      'У провайдера есть выплата, которая не называет ни одной нашей заявки на вывод (создана в кабинете провайдера или другой программой). ' +
      'Выясните, кто и зачем её сделал; если она ошибочная — отмените её в кабинете провайдера, пока она не отправлена.',
    serious: true,
  },
};

export const paymentDifferenceSchema = z.object({
  _id: z.string(),
  provider: z.string(),
  /** The UTC day compared, YYYY-MM-DD. */
  day: z.string(),
  kind: z.enum(DIFFERENCE_KINDS),
  provider_ref: z.string(),
  payment_id: z.string().nullable(),
  /** The two sides as found (the provider's status and amount, ours, the ledger's sum). */
  details: z.record(z.string(), z.unknown()),
  /** Whether «Применить результат провайдера» can settle it. */
  can_apply: z.boolean(),
  found_at: z.string(),
  resolved_at: z.string().nullable(),
  resolution: z.string().nullable(),
});
export type PaymentDifference = z.infer<typeof paymentDifferenceSchema>;

export const differencesQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const resolveDifferenceSchema = z.object({
  note: z.string().trim().min(3, 'Опишите, что сделано (от 3 символов)').max(1000, 'Не длиннее 1000 символов'),
});

/** A payment in its provider's own words (`raw` is the provider's object as it answered). */
export const providerViewSchema = z.object({
  provider: z.string(),
  provider_ref: z.string(),
  status: z.string(),
  amount: z.string(),
  currency: z.string(),
  raw: z.record(z.string(), z.unknown()),
});
export type ProviderViewAnswer = z.infer<typeof providerViewSchema>;
