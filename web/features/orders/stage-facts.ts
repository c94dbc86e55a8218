import type { Order, OrderDetail, OrderStageDetail, OrderStageInfo } from '#contract/orders';
import { formatRubles } from '#contract/money-format';
import { pluralWithCount } from '#contract/plural';
import { isCancelled, isCompleted } from '#contract/order-states';

// What the card, the list and the admin say of an order in stages (ADR 065), apart from how they show it.

/** A head: its detail carries its stages. */
export const isHead = (o: Pick<OrderDetail, 'stages'>): o is OrderDetail & { stages: OrderStageDetail[] } => o.stages !== null && o.stages.length > 0;

/** «3 этапа» beside a head's price in lists; null for a one-stage order. */
export const stageCountText = (o: Pick<Order, 'stage_count'>) => (o.stage_count > 0 ? pluralWithCount(o.stage_count, 'этап', 'этапа', 'этапов') : null);

/** The current stage: the first neither completed nor cancelled (ADR 065's roll-up); null once all are over. */
export const currentStage = (stages: readonly OrderStageDetail[]) => stages.find((s) => !isCompleted(s) && !isCancelled(s)) ?? null;

type Tone = 'success' | 'warning' | 'danger' | 'muted' | '';

/** Where a stage's money is, in words and a badge's tone. */
export function stageFunds(s: Pick<OrderStageInfo, 'funds' | 'released' | 'refunded'>): { text: string; tone: Tone } {
  switch (s.funds) {
    case 'unfunded':
      return { text: 'Не оплачен', tone: 'warning' };
    case 'held':
      return { text: 'В резерве', tone: '' };
    case 'released':
      return { text: 'Выплачено продавцу', tone: 'success' };
    case 'refunded':
      return { text: 'Возвращено заказчику', tone: 'muted' };
    case 'split':
      return { text: `Разделено: ${formatRubles(s.released)} продавцу, ${formatRubles(s.refunded)} заказчику`, tone: 'warning' };
    case 'dropped':
      return { text: 'Снят до оплаты', tone: 'muted' };
  }
}

/** «Этап 2 «Макеты»». */
export const stageName = (s: Pick<OrderStageInfo, 'number' | 'title'>) => `Этап ${s.number} «${s.title}»`;

/** The words of the card's dialogs and toasts: for a whole order, or for one of its stages. */
export function stepWords(o: Pick<Order, 'stage' | 'number'>) {
  const s = o.stage;
  if (!s)
    return {
      deliver: 'Сдать работу',
      delivered: 'Работа сдана',
      acceptTitle: 'Принять работу?',
      acceptText: 'Заказ завершится, и исполнитель получит оплату. Отменить это будет нельзя.',
      accepted: 'Работа принята',
      revised: 'Заказ отправлен на доработку',
      cancelTitle: 'Отменить заказ?',
      cancel: 'Отменить заказ',
      cancelled: 'Заказ отменён',
      dispute: `Спор по заказу №${o.number}`,
      dropNote: null,
    };
  const name = `этап ${s.number} «${s.title}»`;
  const drop = s.funds === 'unfunded';
  return {
    deliver: 'Сдать этап',
    delivered: 'Этап сдан',
    acceptTitle: `Принять ${name}?`,
    acceptText: 'Этап завершится, и исполнитель получит оплату за него. Отменить это будет нельзя.',
    accepted: 'Этап принят',
    revised: 'Этап отправлен на доработку',
    cancelTitle: drop ? `Снять ${name}?` : `Отменить ${name}?`,
    cancel: drop ? 'Снять этап' : 'Отменить этап',
    cancelled: drop ? 'Этап снят' : 'Этап отменён',
    dispute: `Спор по этапу ${s.number} заказа №${s.head_number}`,
    /** Dropping an unfunded stage moves no money and needs no agreement (ADR 065). */
    dropNote: drop ? 'Этап ещё не оплачен: он будет снят из плана, деньги не двигаются. Остальные этапы продолжатся.' : null,
  };
}
