import { z } from 'zod';
import { ORDER_STATUSES } from './money.ts';

/** order_updated: to both parties of an order whose state changed (ADR 025); the pages refetch the order. */
export const orderUpdatedEventSchema = z.object({ _id: z.string(), number: z.number().int(), status: z.enum(ORDER_STATUSES) });
export type OrderUpdatedEvent = z.infer<typeof orderUpdatedEventSchema>;
