// How people see an order or a stage of one (ADR 065): a stage is named by its head's number with its own number and
// title («этап 2 «Макеты» заказа №1042»), a whole order by its number and title. Letters, notifications and the
// finance pages word them here, so that every text says the same.

/** What names an order: for a stage, its head's number and title with the stage's number and title. */
export interface OrderName {
  /** The head's number for a stage, else the order's own. */
  number: number;
  /** The head's title for a stage, else the order's own. */
  title: string;
  /** The stage, or null (absent in facts made before stages) for a whole order. */
  stage?: { number: number; title: string } | null;
}

/** The grammatical cases texts need: «Заказ … оплачен», «отмена заказа …», «по заказу …», «о заказе …». */
export type NameCase = 'nom' | 'gen' | 'dat' | 'about';

const ORDER_WORD: Record<NameCase, string> = { nom: 'заказ', gen: 'заказа', dat: 'заказу', about: 'о заказе' };
const STAGE_WORD: Record<NameCase, string> = { nom: 'этап', gen: 'этапа', dat: 'этапу', about: 'об этапе' };

/**
 * «заказ №1042 «Лендинг»» or «этап 2 «Макеты» заказа №1042» in the case asked, lower case (a sentence's start
 * takes `capitalised`). `title: false` leaves a whole order's title out (subjects); a stage keeps its own.
 */
export function orderName(o: OrderName, c: NameCase = 'nom', { title = true }: { title?: boolean } = {}): string {
  if (o.stage) return `${STAGE_WORD[c]} ${o.stage.number} «${o.stage.title}» заказа №${o.number}`;
  return `${ORDER_WORD[c]} №${o.number}${title ? ` «${o.title}»` : ''}`;
}

export const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A finance line's or a payment's order: «Заказ №1042, этап 2 «Макеты»», or «Заказ №1042 «Лендинг»». */
export function orderLabel(o: OrderName): string {
  return o.stage ? `Заказ №${o.number}, этап ${o.stage.number} «${o.stage.title}»` : `Заказ №${o.number} «${o.title}»`;
}
