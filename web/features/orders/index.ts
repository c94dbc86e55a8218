// Orders: the service page's order form, the person's orders, the order card of an order chat, the admin list.
// The feature's public face: other folders import it only from here (ESLint, docs/decisions/017).
import { preloadable } from '../../lib/preloadable.ts';

/**
 * The service page's order form: loaded only for a signed-in visitor (a guest's page must not grow), with the page's
 * code (`OrderForm.load()`, routes/service-page.tsx).
 */
export const OrderForm = /* @__PURE__ */ preloadable(() => import('./order-form.tsx'));

export { AdminOrders, ADMIN_ORDER_TABS } from './admin-orders.tsx';
export { OrderCard } from './order-card.tsx';
export { OrderItems } from './order-items.tsx';
export { ORDER_TABS, OrdersList, type OrderTab, type OrdersRole } from './orders-list.tsx';
export { orderChatPath } from './order-facts.ts';
export { OrderStatusBadge } from './status-badge.tsx';
export { countdown } from './format.ts';
