import type { PriceSplit } from '#contract/money';
import { formatPercent, formatRubles } from '#contract/money-format';

/**
 * A dispute's split in words, as the admin's preview and the parties' decision show it: rubles to the kopeck, so
 * that the customer's part, the seller's net and the commission add up to the price (ADR 045).
 */
export function splitTexts(
  split: Pick<PriceSplit, 'customer' | 'seller' | 'commission' | 'sellerNet'>,
  sellerPercent: number,
) {
  return {
    customer: `Заказчику (${formatPercent(100 - sellerPercent)}): ${formatRubles(split.customer)}`,
    seller: `Исполнителю (${formatPercent(sellerPercent)}): ${formatRubles(split.sellerNet)}`,
    commission:
      split.commission > 0
        ? `(${formatRubles(split.seller)} за вычетом комиссии сервиса ${formatRubles(split.commission)})`
        : null,
  };
}
