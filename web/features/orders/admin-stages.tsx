import type { OrderStageDetail } from '#contract/orders';
import { Price } from '../../components/ui/price.tsx';
import { adminDeadlineText } from './order-facts.ts';
import { stageFunds } from './stage-facts.ts';
import { OrderStatusBadge } from './status-badge.tsx';

// The admin's view of a head's stages (ADR 065): each stage's number, price, deadline, state and where its money is.

export function AdminStages({ stages }: { stages: OrderStageDetail[] }) {
  return (
    <table className="table admin-stages" data-testid="admin-stages">
      <caption className="visually-hidden">Этапы заказа</caption>
      <thead>
        <tr>
          <th scope="col">Этап</th>
          <th scope="col">Сумма</th>
          <th scope="col">Срок</th>
          <th scope="col">Состояние</th>
          <th scope="col">Деньги</th>
        </tr>
      </thead>
      <tbody>
        {stages.map((s) => (
          <tr key={s._id}>
            <td>
              {s.stage ? `${s.stage.number}. ${s.stage.title}` : s.title} <span className="field__hint">(№{s.number})</span>
            </td>
            <td data-label="Сумма">
              <Price kopecks={s.price} />
            </td>
            <td data-label="Срок">{adminDeadlineText(s)}</td>
            <td data-label="Состояние">
              <OrderStatusBadge status={s.status} />
            </td>
            <td data-label="Деньги">{s.stage ? stageFunds(s.stage).text : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
