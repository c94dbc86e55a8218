import { orderItems, type OrderContents } from '#contract/order-constants';
import { Price } from '../../components/ui/price.tsx';

/** An order's contents line by line (ADR 042): its package (or the work of a bid), then each extra with its price. */
export function OrderItems({ order, className }: { order: OrderContents; className?: string }) {
  return (
    <ul className={className ? `order-items ${className}` : 'order-items'} aria-label="Состав заказа">
      {orderItems(order).map((item, i) => (
        <li key={i} className="order-items__line">
          <span className="order-items__label">{item.label}</span>
          <Price kopecks={item.price} className="order-items__price" />
        </li>
      ))}
    </ul>
  );
}
