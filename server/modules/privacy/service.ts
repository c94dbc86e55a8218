import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { people, type UserRow } from '../users/index.ts';
import { badRequest } from '../../lib/http.ts';
import { displayName } from '../../lib/text.ts';
import type { Platform } from '../../platform/platform.ts';
import { userActor } from '../../platform/actor.ts';
import { audit } from '../../platform/audit.ts';
import { pagesChanged } from '../../platform/page-cache.ts';
import type { SettingsService } from '../../platform/settings.ts';
import type { Letters } from '../../platform/letters/index.ts';
import type { TxContext } from '../../platform/tx.ts';
import {
  PRIVACY_MESSAGES,
  PRIVACY_PAGE_SIZE,
  type AdminConsent,
  type AdminDeletion,
  type PrivacyDocument,
  type PrivacyDocumentKind,
  type PrivacyStatus,
} from '#contract/privacy';
import { privacyConsents, privacyDeletionRequests, privacyDocuments } from './schema.ts';
import { allDocuments, currentDocument, hasConsentedTo, presentDocument, publishDocument, recordConsent } from './documents.ts';
import { pendingDeletion, presentDeletion } from './deletions.ts';
import { personalDataOf } from './export.ts';
import { requestDeletion } from './commands/request-deletion.ts';
import { cancelDeletion } from './commands/cancel-deletion.ts';
import { anonymiseDue } from './commands/anonymise.ts';

export interface PrivacyDeps {
  db: Db;
  platform: Platform;
  settings: SettingsService;
  /** The auth module's password check, whose wrong guesses are limited like failed sign-ins (given, not imported: auth records consents here). */
  passwords: { checkCurrentPassword(user: UserRow, password: string, field: string): Promise<void> };
  /** The deletion's letter to the person (it may not have been them who asked). */
  letters: Letters;
  /** The auth module's second factors of a person (auth/personal-data.ts), given at composition like `passwords`. */
  factors: PersonFactors;
}

/** What the privacy module reads and forgets of a person's second factors. */
export interface PersonFactors {
  factorsOfPerson(db: Db, userId: string): Promise<{ totpSince: Date | null; passkeys: { name: string; createdAt: Date; lastUsedAt: Date | null }[] }>;
  forgetFactorsOf(tx: TxContext['tx'], userId: string): Promise<void>;
}

const person = people('person');

/** The texts, the consents and the operator's views of them (ADR 052). */
export class PrivacyService {
  constructor(readonly deps: PrivacyDeps) {}

  async document(kind: PrivacyDocumentKind): Promise<PrivacyDocument> {
    return presentDocument(await currentDocument(this.deps.db, kind));
  }

  async status(user: UserRow): Promise<PrivacyStatus> {
    const { db, settings } = this.deps;
    const current = await currentDocument(db, 'consent');
    const [accepted, deletion, days] = await Promise.all([
      hasConsentedTo(db, user.id, current.id),
      pendingDeletion(db, user.id),
      settings.get('privacy.deletionCoolingOffDays'),
    ]);
    return {
      consent: { version: current.version, accepted, title: current.title },
      deletion: deletion ? presentDeletion(deletion) : null,
      cooling_off_days: days,
    };
  }

  /** The consent given at the sign-in gate: to the version the person read, which must still be the current one. */
  async accept(user: UserRow, version: number, evidence: { ip: string; userAgent: string | null }): Promise<PrivacyStatus> {
    await this.deps.platform.withTx(userActor(user), async ({ tx }) => {
      const current = await currentDocument(tx, 'consent');
      if (current.version !== version) throw badRequest(PRIVACY_MESSAGES.consentOutdated);
      if (await hasConsentedTo(tx, user.id, current.id)) return;
      await recordConsent(tx, { userId: user.id, ip: evidence.ip, userAgent: evidence.userAgent });
    });
    return this.status(user);
  }

  /** All of the person's data as one JSON document (ADR 052). */
  export(user: UserRow) {
    return personalDataOf(this.deps.db, user.id, this.deps.factors);
  }

  requestDeletion(user: UserRow, password: string) {
    return requestDeletion(this.deps, user, password);
  }

  cancelDeletion(user: UserRow) {
    return cancelDeletion(this.deps, user);
  }

  /** The recurring job's run: the accounts whose cooling-off period has passed are anonymised. */
  anonymiseDue(now = new Date()) {
    return anonymiseDue(this.deps.db, this.deps.platform.withTx, now, this.deps.factors);
  }

  async documents(): Promise<PrivacyDocument[]> {
    return (await allDocuments(this.deps.db)).map(presentDocument);
  }

  /** A new version of a text (audited); the pages show it at once, and a new consent text asks everyone again. */
  async publish(admin: UserRow, kind: PrivacyDocumentKind, text: { title: string; body: string }): Promise<PrivacyDocument> {
    const row = await this.deps.platform.withTx(userActor(admin), async ({ tx, outbox }) => {
      const { row, previous } = await publishDocument(tx, kind, text, admin.id);
      await audit(tx, {
        actorId: admin.id,
        action: 'privacy.publish',
        targetType: 'privacy_document',
        targetId: row.id,
        details: { kind, number: row.version, previous: previous.version },
      });
      // The guest page cache holds /privacy and /consent.
      pagesChanged(outbox);
      return row;
    });
    return presentDocument(row);
  }

  async consents(page: number): Promise<{ result: AdminConsent[]; total: number }> {
    const { db } = this.deps;
    const [rows, [total]] = await Promise.all([
      db
        .select({ c: privacyConsents, d: { kind: privacyDocuments.kind, version: privacyDocuments.version }, p: { id: person.id, name: person.name, surname: person.surname, userName: person.userName } })
        .from(privacyConsents)
        .innerJoin(privacyDocuments, eq(privacyDocuments.id, privacyConsents.documentId))
        .innerJoin(person, eq(person.id, privacyConsents.userId))
        .orderBy(desc(privacyConsents.givenAt), desc(privacyConsents.id))
        .limit(PRIVACY_PAGE_SIZE)
        .offset((page - 1) * PRIVACY_PAGE_SIZE),
      db.select({ n: count() }).from(privacyConsents),
    ]);
    return {
      total: total?.n ?? 0,
      result: rows.map(({ c, d, p }) => ({
        _id: c.id,
        user: { _id: p.id, name: displayName(p) },
        kind: d.kind,
        version: d.version,
        given_at: c.givenAt.toISOString(),
        ip: c.ip,
        user_agent: c.userAgent,
      })),
    };
  }

  async deletions(page: number): Promise<{ result: AdminDeletion[]; total: number }> {
    const { db } = this.deps;
    const [rows, [total]] = await Promise.all([
      db
        .select({ r: privacyDeletionRequests, p: { id: person.id, name: person.name, surname: person.surname, userName: person.userName } })
        .from(privacyDeletionRequests)
        .innerJoin(person, eq(person.id, privacyDeletionRequests.userId))
        .orderBy(desc(privacyDeletionRequests.requestedAt), desc(privacyDeletionRequests.id))
        .limit(PRIVACY_PAGE_SIZE)
        .offset((page - 1) * PRIVACY_PAGE_SIZE),
      db.select({ n: count() }).from(privacyDeletionRequests),
    ]);
    return {
      total: total?.n ?? 0,
      result: rows.map(({ r, p }) => ({ ...presentDeletion(r), user: { _id: p.id, name: displayName(p) } })),
    };
  }
}
