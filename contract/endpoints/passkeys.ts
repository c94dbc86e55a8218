import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { idParams, okSchema } from '../api.ts';
import { stepUpAnswerSchema } from '../two-factor.ts';
import {
  passkeyAddSchema,
  passkeyAssertionSchema,
  passkeyLoginOptionsSchema,
  passkeyLoginSchema,
  passkeyOptionsSchema,
  passkeySchema,
} from '../passkeys.ts';

const tags = ['auth'];
const options = okSchema(passkeyOptionsSchema);

/** Passkeys (ADR 057): adding and removing them, signing in with one, and a step-up with one. */
export const passkeyEndpoints = defineEndpoints({
  'auth.passkeys': {
    access: 'user',
    tags,
    summary: "The person's passkeys",
    response: okSchema(z.array(passkeySchema)),
  },
  'auth.passkeyOptions': {
    access: 'user',
    tags,
    summary: 'Options for navigator.credentials.create(); a person with a second factor shows a step-up first',
    response: options,
  },
  'auth.passkeyAdd': {
    access: 'user',
    tags,
    summary: 'The new passkey: the answer to the options, and its name',
    body: passkeyAddSchema,
    response: okSchema(passkeySchema),
  },
  'auth.passkeyRemove': {
    access: 'user',
    tags,
    summary: 'Remove a passkey (after a step-up)',
    params: idParams,
    response: okSchema(z.literal(true)),
  },
  'auth.passkeyLoginOptions': {
    access: 'public',
    tags,
    summary:
      "Options for navigator.credentials.get(): with the login's challenge, the account's passkeys; without, any",
    body: passkeyLoginOptionsSchema,
    response: options,
  },
  'auth.passkeyLogin': {
    access: 'public',
    tags,
    summary: 'Sign in with a passkey: as the second step of POST /api/auth/login (its challenge), or password-less',
    body: passkeyLoginSchema,
    response: okSchema(z.string()),
  },
  'auth.stepUpPasskeyOptions': {
    access: 'user',
    tags,
    summary: "Options for a step-up with one of the person's passkeys",
    response: options,
  },
  'auth.stepUpPasskey': {
    access: 'user',
    tags,
    summary: 'A step-up confirmed with a passkey instead of a code (sets the step_up cookie)',
    body: passkeyAssertionSchema,
    response: okSchema(stepUpAnswerSchema),
  },
});
