import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import { chatIdParamsSchema, messageSchema, messagesQuerySchema } from '../chat.ts';

/** The admin area's people, settings and chats (every call: administrators only). */
export const adminEndpoints = defineEndpoints({
  'admin.chats.messages': {
    access: 'admin',
    tags: ['admin'],
    summary: "Any chat's messages, newest first (admins)",
    params: chatIdParamsSchema,
    query: messagesQuerySchema,
    response: okSchema(z.array(messageSchema)),
  },
});
