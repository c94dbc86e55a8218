import { z } from 'zod';
import { okSchema } from './api.ts';
import { keysetPageSchema } from './catalog.ts';
import { messageFileUrlSchema } from './chat.ts';
import { fileInfoSchema } from './files.ts';
import { orderPartySchema } from './orders.ts';
import {
  APPEAL_MAX_ANSWER,
  APPEAL_MAX_FILES,
  APPEAL_MAX_TEXT,
  APPEAL_MESSAGES,
  APPEAL_MIN_ANSWER,
  APPEAL_MIN_TEXT,
  APPEAL_OBJECT_TYPES,
  APPEAL_STATUSES,
  APPEAL_SUBJECTS,
} from './appeal-constants.ts';

// Appeals (issue 14, ADR 035): the answers and requests of contract/endpoints/appeals.ts. The zod-free part is
// appeal-constants.ts.

export * from './appeal-constants.ts';

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

/** The object an appeal names, as it was when the appeal was written (its title is kept: it may change or go). */
export const appealObjectSchema = z.object({
  type: z.enum(APPEAL_OBJECT_TYPES),
  _id: z.string(),
  title: z.string(),
  /** Where the object is seen, for the person (an admin's link differs for orders and disputes). */
  link: z.string().nullable(),
});
export type AppealObject = z.infer<typeof appealObjectSchema>;

export const appealSchema = z.object({
  _id: z.string(),
  /** A short number to name it by ("Обращение №12"). */
  number: z.number().int(),
  subject: z.enum(APPEAL_SUBJECTS),
  object: appealObjectSchema.nullable(),
  text: z.string(),
  files: z.array(fileInfoSchema),
  status: z.enum(APPEAL_STATUSES),
  author: orderPartySchema,
  /** The admin who took it (in progress or closed). */
  admin: orderPartySchema.nullable(),
  answer: z.string().nullable(),
  created_at: z.string(),
  taken_at: z.string().nullable(),
  closed_at: z.string().nullable(),
});
export type Appeal = z.infer<typeof appealSchema>;

export const appealListSchema = keysetPageSchema(appealSchema).extend({ total: z.number().int() });
export const appealAnswerSchema = okSchema(appealSchema);

/** What the form says the appeal is about, before it is sent (?subject=…&object=… of the appeals tab). */
export const appealTargetSchema = okSchema(z.object({ subject: z.enum(APPEAL_SUBJECTS), object: appealObjectSchema.nullable() }));
export type AppealTarget = z.infer<typeof appealTargetSchema>['result'];

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const cursor = z.string().max(200).optional();
const limit = z.coerce.number().int().min(1).max(50).default(10);
const subject = z.enum(APPEAL_SUBJECTS, { error: APPEAL_MESSAGES.badSubject });
/** The object's id: malformed is a 400 here (it comes from a form), unknown a 404 from the service. */
const objectId = z.uuid(APPEAL_MESSAGES.badId);

export const appealIdParamsSchema = z.object({ id: z.uuid(APPEAL_MESSAGES.badId) });

export const myAppealsQuerySchema = z.object({ cursor, limit });
export type MyAppealsQuery = z.input<typeof myAppealsQuerySchema>;

export const adminAppealsQuerySchema = z.object({
  status: z.enum(APPEAL_STATUSES).optional(),
  subject: subject.optional(),
  /** An appeal's number, or words of its text, its object's title, its author's name or email. */
  q: z.string().trim().max(200).optional(),
  cursor,
  limit,
});
export type AdminAppealsQuery = z.input<typeof adminAppealsQuerySchema>;

/** GET /api/appeals/target?subject=…&object=…: the object a prefilled form names, checked like a create. */
export const appealTargetQuerySchema = z.object({ subject, object: objectId.optional() });

export const createAppealSchema = z.object({
  subject,
  object: objectId.nullish().transform((v) => v ?? null),
  text: z
    .string({ error: APPEAL_MESSAGES.textEmpty })
    .trim()
    .min(1, APPEAL_MESSAGES.textEmpty)
    .min(APPEAL_MIN_TEXT, APPEAL_MESSAGES.textTooShort)
    .max(APPEAL_MAX_TEXT, APPEAL_MESSAGES.tooLong(APPEAL_MAX_TEXT)),
  files: z
    .array(messageFileUrlSchema)
    .max(APPEAL_MAX_FILES, APPEAL_MESSAGES.tooManyFiles)
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
});
export type CreateAppealInput = z.input<typeof createAppealSchema>;

export const answerAppealSchema = z.object({
  answer: z
    .string({ error: APPEAL_MESSAGES.answerEmpty })
    .trim()
    .min(1, APPEAL_MESSAGES.answerEmpty)
    .min(APPEAL_MIN_ANSWER, APPEAL_MESSAGES.answerTooShort)
    .max(APPEAL_MAX_ANSWER, APPEAL_MESSAGES.tooLong(APPEAL_MAX_ANSWER)),
});
export type AnswerAppealInput = z.input<typeof answerAppealSchema>;
