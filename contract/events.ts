import { z } from 'zod';
import {
  countersEventSchema,
  deleteChatEventSchema,
  newMessageEventSchema,
  updateMessageEventSchema,
  updateUserEventSchema,
  type CountersEvent,
  type DeleteChatEvent,
  type NewMessageEvent,
  type UpdateMessageEvent,
  type UpdateUserEvent,
} from './chat.ts';
import { bidsFlagSchema } from './bids.ts';
import { orderUpdatedEventSchema, type OrderUpdatedEvent } from './order-events.ts';
import { notificationsEventSchema, type NotificationsEvent } from './notifications.ts';
import { newDisputeEventSchema, type NewDisputeEvent } from './disputes.ts';

// The Socket.IO event maps (SPEC §7), in Socket.IO's typed-events style: the server's `Server<ClientToServerEvents,
// ServerToClientEvents>` and the client's `Socket<ServerToClientEvents, ClientToServerEvents>` are typed from them,
// and so is every emit on the server (realtime.emitToUsers, the outbox's socket rows).

/** Server → client. Each goes only to the sockets of the people it concerns; none takes an acknowledgement. */
export interface ServerToClientEvents {
  /** To every member: the chat as that member sees it and the new message. */
  new_message: (payload: NewMessageEvent) => void;
  /** To the deleting member's sockets. */
  delete_chat: (payload: DeleteChatEvent) => void;
  /** To the people who share a chat with the user: their first socket connected or their last one left. */
  update_user: (payload: UpdateUserEvent) => void;
  /** To the sender's sockets: their message was seen. */
  update_message: (payload: UpdateMessageEvent) => void;
  /** To one person: their unseen counts. */
  get_counters: (payload: CountersEvent) => void;
  /** To a customer: the bids flag went up (a new bid) or down (cleared in another tab). */
  bids_flag: (payload: { hasUnread: boolean }) => void;
  /** To both parties of an order: its state changed (the pages refetch it). */
  order_updated: (payload: OrderUpdatedEvent) => void;
  /** To one person: a notification of theirs arrived (with it), or their unread count changed (ADR 030). */
  notifications: (payload: NotificationsEvent) => void;
  /** To a dispute's parties and the admins: its chat as each sees it, and its state (opened, taken, closed). */
  new_dispute: (payload: NewDisputeEvent) => void;
}

/**
 * Client → server: none. The client sends nothing but engine.io's pongs and the handshake (its token in the auth
 * data), so the server listens to no event of its own (SPEC §4).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an events map with no events
export interface ClientToServerEvents {}

export type ServerEvent = keyof ServerToClientEvents;
/**
 * The arguments of a server event after its name (its one payload). Emitters take them as a rest parameter
 * (`emit<E>(…, event: E, ...args: ServerEventArgs<E>)`): so a generic emitter hands them on to Socket.IO's typed
 * emit as they are.
 */
export type ServerEventArgs<E extends ServerEvent> = Parameters<ServerToClientEvents[E]>;
export type ServerEventPayload<E extends ServerEvent> = ServerEventArgs<E>[0];

/** A check of a server event's arguments: a zod schema, seen through the one method the server calls. */
export interface ServerEventArgsSchema<A> {
  parse(data: unknown): A;
}

/**
 * Each server event's arguments as a schema. The server checks an outbox row's payload with it before sending it
 * (the row may have been written by an older version of the server); the annotation keeps it in step with the map.
 */
export const serverEventSchemas: { [E in ServerEvent]: ServerEventArgsSchema<ServerEventArgs<E>> } = {
  new_message: z.tuple([newMessageEventSchema]),
  delete_chat: z.tuple([deleteChatEventSchema]),
  update_user: z.tuple([updateUserEventSchema]),
  update_message: z.tuple([updateMessageEventSchema]),
  get_counters: z.tuple([countersEventSchema]),
  bids_flag: z.tuple([bidsFlagSchema]),
  order_updated: z.tuple([orderUpdatedEventSchema]),
  notifications: z.tuple([notificationsEventSchema]),
  new_dispute: z.tuple([newDisputeEventSchema]),
};

export const isServerEvent = (name: string): name is ServerEvent => Object.hasOwn(serverEventSchemas, name);
