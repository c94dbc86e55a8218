import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import {
  adminAuditEntrySchema,
  adminAuditQuerySchema,
  adminRoleSchema,
  adminRouteRuleSchema,
  adminRouteRulesQuerySchema,
  adminUserDetailSchema,
  adminUserSchema,
  adminUsersQuerySchema,
  blockUserSchema,
  overviewQuerySchema,
  overviewSchema,
  routeRuleInputSchema,
} from '../admin.ts';
import { keysetPageSchema } from '../catalog.ts';
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

  'admin.overview': { access: 'admin', tags, summary: 'The marketplace at a glance', query: overviewQuerySchema, response: okSchema(overviewSchema) },

  'admin.routeRules.list': { access: 'admin', tags: ['route-rules'], query: adminRouteRulesQuerySchema, response: keysetPageSchema(adminRouteRuleSchema) },
  'admin.routeRules.create': { access: 'admin', tags: ['route-rules'], body: routeRuleInputSchema, response: okSchema(adminRouteRuleSchema) },
  'admin.routeRules.update': { access: 'admin', tags: ['route-rules'], params: idParams, body: routeRuleInputSchema, response: okSchema(adminRouteRuleSchema) },
  'admin.routeRules.remove': { access: 'admin', tags: ['route-rules'], params: idParams, response: okSchema(z.object({ _id: z.string() })) },

  'admin.audit.list': {
    access: 'admin',
    tags,
    summary: 'What administrators did, newest first',
    query: adminAuditQuerySchema,
    response: keysetPageSchema(adminAuditEntrySchema),
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
