import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import { adminRoleSchema, adminUserDetailSchema, adminUserSchema, adminUsersQuerySchema, blockUserSchema } from '../admin.ts';
import { chatIdParamsSchema, messageSchema, messagesQuerySchema } from '../chat.ts';
import { settingsPatchSchema, settingsSchema } from '../settings.ts';

const tags = ['admin'];

/** The admin area's people, operator settings and chats (every call: administrators only). */
export const adminEndpoints = defineEndpoints({
  'admin.users.list': { access: 'admin', tags, query: adminUsersQuerySchema, response: okSchema(z.array(adminUserSchema)) },
  'admin.users.get': { access: 'admin', tags, params: idParams, response: okSchema(adminUserDetailSchema) },
  'admin.users.block': { access: 'admin', tags, params: idParams, body: blockUserSchema, response: okSchema(adminUserSchema) },
  'admin.users.setAdmin': { access: 'admin', tags, params: idParams, body: adminRoleSchema, response: okSchema(adminUserSchema) },

  'admin.settings.get': { access: 'admin', tags: ['settings'], summary: 'Operator settings', response: okSchema(settingsSchema) },
  'admin.settings.update': {
    access: 'admin',
    tags: ['settings'],
    summary: 'Change operator settings (any subset)',
    body: settingsPatchSchema,
    response: okSchema(settingsSchema),
  },

  'admin.chats.messages': {
    access: 'admin',
    tags,
    summary: "Any chat's messages, newest first (admins)",
    params: chatIdParamsSchema,
    query: messagesQuerySchema,
    response: okSchema(z.array(messageSchema)),
  },
});
