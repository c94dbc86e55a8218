import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import { adminUserSchema } from '../admin.ts';
import {
  recoveryCodesSchema,
  stepUpAnswerSchema,
  stepUpSchema,
  twoFactorDisableSchema,
  twoFactorEnableSchema,
  twoFactorLoginSchema,
  twoFactorSetupAnswerSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../two-factor.ts';

const tags = ['auth'];

/** The second factor (ADR 054): the sign-in's second step, step-up, turning TOTP on and off, an admin's reset. */
export const twoFactorEndpoints = defineEndpoints({
  'auth.loginTwoFactor': {
    access: 'public',
    tags,
    summary: "The sign-in's second step: the challenge of POST /api/auth/login and a code",
    body: twoFactorLoginSchema,
    response: okSchema(z.string()),
  },
  'auth.stepUp': {
    access: 'user',
    tags,
    summary: 'A fresh second factor for a withdrawal or an account change, valid five minutes',
    description: 'Sets the httpOnly step_up cookie; an API client may send the answered token as the X-Step-Up header instead.',
    body: stepUpSchema,
    response: okSchema(stepUpAnswerSchema),
  },
  'auth.twoFactor': { access: 'user', tags, response: okSchema(twoFactorStatusSchema) },
  'auth.twoFactorSetup': { access: 'user', tags, body: twoFactorSetupSchema, response: okSchema(twoFactorSetupAnswerSchema) },
  'auth.twoFactorEnable': { access: 'user', tags, body: twoFactorEnableSchema, response: okSchema(recoveryCodesSchema) },
  'auth.twoFactorDisable': { access: 'user', tags, body: twoFactorDisableSchema, response: okSchema(z.literal(true)) },
  'auth.recoveryCodes': { access: 'user', tags, body: twoFactorEnableSchema, response: okSchema(recoveryCodesSchema) },
  'admin.users.resetTwoFactor': { access: 'admin', tags: ['admin'], params: idParams, response: okSchema(adminUserSchema) },
});
