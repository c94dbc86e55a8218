import { z } from 'zod';
import { defineEndpoints } from '../endpoint.ts';
import { okSchema } from '../api.ts';
import {
  acceptConsentSchema,
  adminConsentSchema,
  adminDeletionSchema,
  deletionBodySchema,
  deletionRequestSchema,
  privacyDocumentInputSchema,
  privacyDocumentSchema,
  privacyKindParams,
  privacyPageQuery,
  privacyStatusSchema,
} from '../privacy.ts';

const tags = ['privacy'];
const page = <T extends z.ZodType>(item: T) => okSchema(z.array(item)).extend({ total: z.number().int() });

/**
 * Personal data under 152-ФЗ (ADR 052): the current processing policy and consent texts for anyone; a person's
 * consent, export and deletion request; the operator's versions, consents and deletion requests.
 */
export const privacyEndpoints = defineEndpoints({
  'privacy.document': { access: 'public', tags, summary: 'The current version of the policy or the consent text', params: privacyKindParams, response: okSchema(privacyDocumentSchema) },
  'privacy.status': { access: 'user', tags, summary: "Whether the person consented to the current text; their pending deletion", response: okSchema(privacyStatusSchema) },
  'privacy.accept': { access: 'user', tags, summary: 'Consent to the current version of the consent text (recorded with address and browser)', body: acceptConsentSchema, response: okSchema(privacyStatusSchema) },
  'privacy.export': { access: 'user', tags, summary: "All of the person's personal data as a JSON download", response: z.record(z.string(), z.unknown()) },
  'privacy.requestDeletion': { access: 'user', tags, summary: 'Ask to delete the account after the cooling-off period (password confirmed; audited)', body: deletionBodySchema, response: okSchema(deletionRequestSchema) },
  'privacy.cancelDeletion': { access: 'user', tags, summary: 'Cancel a pending deletion request (audited)', response: okSchema(deletionRequestSchema) },
  'admin.privacy.documents': { access: 'admin', tags, summary: 'Every version of both texts, newest first', response: okSchema(z.array(privacyDocumentSchema)) },
  'admin.privacy.publish': { access: 'admin', tags, summary: 'Publish a new version of a text (audited); a new consent text asks everyone again', params: privacyKindParams, body: privacyDocumentInputSchema, response: okSchema(privacyDocumentSchema) },
  'admin.privacy.consents': { access: 'admin', tags, summary: 'Consent records, newest first', query: privacyPageQuery, response: page(adminConsentSchema) },
  'admin.privacy.deletions': { access: 'admin', tags, summary: 'Deletion requests and their deadlines, newest first', query: privacyPageQuery, response: page(adminDeletionSchema) },
});
