/**
 * The authorization matrix (docs/decisions/012-api-fuzzing.md): every endpoint of contract/routes.ts × every kind
 * of caller, with the status each one gets, declared in ONE table (MATRIX) and checked against the real app.
 *
 * The actors (server/test/matrix/world.ts):
 * - anonymous: no token;
 * - unconfirmed: signed in, email not confirmed;
 * - confirmed: a confirmed member with no tie to the owner (a stranger to the owner's resources);
 * - other: a confirmed member who is not the owner but shares the owner's chat (its other member);
 * - owner: the confirmed member who owns the resources the requests name (services, projects, files, the chat);
 * - admin: an administrator;
 * - blocked: a member blocked by an admin, sending the token they held before the block.
 * Every member has both roles; a row's `mode` puts them all in seller or customer mode first.
 *
 * Each row's `request` builds a valid request as the actor would send it (ids of the owner's resources, fresh ones
 * for a cell that changes or deletes something), so that the status says who may, not what is malformed: the
 * owner's (or the admin's) 200 in the same row shows the request is valid. A cell the product rules would answer
 * otherwise is a `defect()`: it states the right status and today's, and is reported until fixed.
 *
 *   npx vitest run server/authorization-matrix.db.test.ts
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '#contract/routes';
import {
  ACTORS,
  createMatrixWorld,
  PASSWORD,
  type Actor,
  type Member,
  type MatrixRequest,
  type MatrixWorld,
} from './test/matrix/world.ts';
import { registration } from './test/api.ts';
import { multipartBody, PNG } from './test/multipart.ts';
import type { Role } from './modules/users/schema.ts';
import { settings as settingsTable } from './platform/schema.ts';
import { systemActor } from './platform/actor.ts';
import { postTransfer } from './modules/ledger/index.ts';
import { bids } from './modules/bids/schema.ts';
import { notifications } from './modules/notifications/schema.ts';
import { appeals } from './modules/appeals/schema.ts';
import { paymentDifferences, withdrawals } from './modules/payments/schema.ts';
import { payOrderForTest } from './modules/orders/testing.ts';
import { currentDocument } from './modules/privacy/index.ts';
import { privacyDeletionRequests } from './modules/privacy/schema.ts';
import { createSession } from './platform/sessions.ts';
import { TEST_SECRET } from './test/app.ts';
import { challengeFor, freshCode, stepUpTokenFor } from './modules/auth/testing.ts';
import { codeAt } from './modules/auth/index.ts';
import { passkeys } from './modules/auth/schema.ts';
import { TestAuthenticator } from './modules/auth/testing-passkey.ts';

/** A cell: the status, or a known defect (the right status, and today's until it is fixed). */
type Cell = number | { expected: number; today: number; defect: string };
type Expect = Record<Actor, Cell>;

interface Row {
  expect: Expect;
  request: (w: MatrixWorld, actor: Actor) => MatrixRequest | Promise<MatrixRequest>;
  /** The mode every member is put in first (who may post services or projects depends on it). */
  mode?: Role;
  /** The request changes something: the actors are put back after each cell. */
  writes?: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Common rows
// ---------------------------------------------------------------------------------------------------------

/** Everyone gets `status`; a blocked member's token counts for nothing, so they are a guest. */
const everyone = (status = 200): Expect => ({
  anonymous: status,
  unconfirmed: status,
  confirmed: status,
  other: status,
  owner: status,
  admin: status,
  blocked: status,
});
/** Any signed-in member (401 without a valid token: the blocked member's is no longer one). */
const signedIn = (status = 200): Expect => ({ ...everyone(status), anonymous: 401, blocked: 401 });
/** A member whose email is confirmed (PRODUCT.md: publishing needs it). */
const confirmedOnly = (status = 200): Expect => ({ ...signedIn(status), unconfirmed: 403 });
/** Administrators only: the admin API is 401 to guests, 403 to members. */
const adminOnly = (status = 200): Expect => ({
  anonymous: 401,
  unconfirmed: 403,
  confirmed: 403,
  other: 403,
  owner: 403,
  admin: status,
  blocked: 401,
});
/** The owner's own, of a resource the public may see: every other member 403 (ADR 016). */
const ownerOfPublic = (base: Expect): Expect => ({ ...base, unconfirmed: 403, confirmed: 403, other: 403, admin: 403 });
/** The owner's (and admins') only, of a resource the public may not see: others 404, as for an unknown id. */
const ownerOrAdminSees = (): Expect => ({ ...everyone(404), owner: 200, admin: 200 });
/** A member of the owner's chat: the owner and `other`; a member outside it 403 (chat/policy.ts). */
const chatMembers = (): Expect => ({ ...signedIn(403), other: 200, owner: 200 });

/** A known defect, written where its row is: the right status, today's, and why (the report lists them). */
export function defect(expected: number, today: number, note: string): Cell {
  return { expected, today, defect: note };
}

// Valid bodies.
const serviceInput = {
  title: 'Логотип для кофейни под ключ',
  description: 'Нарисую логотип: три варианта на выбор, исходники в векторе, правки до полного согласования.',
  category: 'design',
  price: 150_000,
  days: 5,
};
const projectInput = {
  title: 'Нужен лендинг для кофейни',
  description: 'Одностраничный сайт: меню, контакты, форма заказа столика и карта.',
  category: 'development',
  budget: 2_000_000,
  days: 10,
};
const bidInput = {
  price: 1_500_000,
  days: 7,
  comment: 'Сделаю лендинг за неделю: опыт пять лет, примеры работ в профиле.',
};
/** The version of the consent text in force (what the sign-in gate shows). */
async function currentConsentVersion(w: MatrixWorld): Promise<number> {
  return (await currentDocument(w.database.db, 'consent')).version;
}

/** An unread notification of `of`. */
async function freshNotification(w: MatrixWorld, of: Member): Promise<string> {
  const [row] = await w.database.db
    .insert(notifications)
    .values({ userId: w.user(of).id, kind: 'bid.new', text: 'Новый отклик', link: '/profile/bids' })
    .returning({ id: notifications.id });
  return row!.id;
}
/** The token of the owner's link that switches the "news" letters off. */
const unsubscribeTokenOf = (w: MatrixWorld) =>
  new URL(w.app.services.letters.unsubscribeUrl(w.user('owner').id, 'news')).searchParams.get('token')!;

/** An active bid of `seller` on a fresh active project of `customer`. */
async function freshBid(w: MatrixWorld, seller: Member, customer: Member): Promise<string> {
  const projectId = await w.fresh.project({}, customer);
  const [bid] = await w.database.db
    .insert(bids)
    .values({
      projectId,
      sellerId: w.user(seller).id,
      price: bidInput.price,
      days: bidInput.days,
      comment: bidInput.comment,
    })
    .returning({ id: bids.id });
  return bid!.id;
}
let n = 0;
const unique = () => `${Date.now().toString(36)}${++n}`;
const self = (w: MatrixWorld, actor: Actor) => (actor === 'anonymous' ? 'owner' : actor);

/**
 * A step-up of the moment for the actor (ADR 054): the admin has a second factor (the factories give admins one),
 * so a withdrawal or an account change of theirs needs it; for the others it changes nothing.
 */
const stepUp = async (w: MatrixWorld, actor: Actor): Promise<Record<string, string>> =>
  actor === 'anonymous' ? {} : { 'x-step-up': await stepUpTokenFor(TEST_SECRET, w.user(actor)) };
/** The origin of the matrix's requests (app.inject: Host localhost:80), the passkeys' relying party (ADR 057). */
const PASSKEY_ORIGIN = 'http://localhost';
/** A passkey of the owner's, stored as a registration would have. */
async function ownerPasskey(w: MatrixWorld) {
  const authenticator = new TestAuthenticator(PASSKEY_ORIGIN);
  const [row] = await w.database.db
    .insert(passkeys)
    .values(authenticator.row(w.user('owner').id))
    .returning();
  return { id: row!.id, authenticator };
}
/** A code of the admin's app no earlier cell used (the others have no second factor: any code is wrong). */
const adminCode = (w: MatrixWorld) => freshCode(w.database.db, w.user('admin').id);

// Payments (issue 12): an order of the owner (customer) with `other` (seller), money on an actor's balance, a
// provider payment and a withdrawal of the owner.
const moneyActor = systemActor('matrix');
async function ownerOrder(w: MatrixWorld, price = 150_000): Promise<string> {
  // Warm: openOrder reads the settings outside its transaction (a cold read would wait for it on PGlite).
  await w.app.services.settings.all();
  const { order } = await w.app.services.platform.withTx(moneyActor, (ctx) =>
    w.app.services.orders.open(ctx, {
      customerId: w.user('owner').id,
      sellerId: w.user('other').id,
      title: 'Логотип для кофейни',
      price,
      days: 3,
      revisions: 1,
    }),
  );
  return order.id;
}
async function fundActor(w: MatrixWorld, actor: Actor, amount = 100_000) {
  if (actor === 'anonymous') return;
  await w.app.services.platform.withTx(moneyActor, ({ tx }) =>
    postTransfer(tx, {
      kind: 'adjustment',
      key: `matrix-fund:${unique()}`,
      legs: [
        { account: { kind: 'external', method: 'card' }, amount: -amount },
        { account: { kind: 'available', userId: w.user(actor).id }, amount },
      ],
    }),
  );
}
async function ownerCardPayment(w: MatrixWorld): Promise<string> {
  const result = await w.app.services.payments.pay(w.user('owner'), { order_id: await ownerOrder(w), method: 'card' });
  return result.payment_id;
}
async function freshDifference(w: MatrixWorld): Promise<string> {
  const [row] = await w.database.db
    .insert(paymentDifferences)
    .values({
      provider: 'yookassa',
      day: '2026-01-01',
      kind: 'not_at_provider',
      providerRef: `ref-${unique()}`,
      details: { provider_status: 'failed' },
    })
    .returning({ id: paymentDifferences.id });
  return row!.id;
}
async function ownerWithdrawal(w: MatrixWorld): Promise<string> {
  await fundActor(w, 'owner');
  return (
    await w.app.services.payments.withdraw(w.user('owner'), {
      amount: 60_000,
      method: 'card',
      payout_token: 'pt-matrix',
      card: { first6: '411111', last4: '1111' },
    })
  )._id;
}
/** A payout of the owner out of a safe deal that waits for their card or wallet (ADR 053). */
async function ownerAwaitingPayout(w: MatrixWorld): Promise<string> {
  const orderId = await ownerOrder(w);
  const [row] = await w.database.db
    .insert(withdrawals)
    .values({
      userId: w.user('owner').id,
      amount: 60_000,
      method: 'card',
      destination: '',
      status: 'awaiting_details',
      payoutProvider: 'yookassa',
      payoutAmount: 60_000,
      orderId,
      orderNumber: 1,
      dealRef: `dl-${unique()}`,
    })
    .returning({ id: withdrawals.id });
  return row!.id;
}
async function withRates(w: MatrixWorld) {
  const value = { USDT: 90, BTC: 9_000_000, lastUpdated: new Date().toISOString() };
  await w.database.db
    .insert(settingsTable)
    .values({ key: 'rates', value })
    .onConflictDoUpdate({ target: settingsTable.key, set: { value } });
  (w.app.services.rates as unknown as { cached: unknown }).cached = null;
}
/** The customer's only: anyone else is told the order does not exist (payments/policy.ts), admins included. */
const orderCustomerOnly = (): Expect => ({ ...signedIn(404), owner: 200 });
/**
 * A fresh order of the owner's service (the owner sells, `other` buys), in the state a row needs: awaiting payment
 * (a draft the owner does not see, ADR 042), paid (in progress), delivered, or paid with a cancellation proposed by
 * the owner.
 */
async function freshOrder(
  w: MatrixWorld,
  state: 'awaiting_payment' | 'in_progress' | 'delivered' | 'proposed' | 'completed' = 'in_progress',
): Promise<string> {
  const { orders, platform } = w.app.services;
  const serviceId = await w.fresh.service();
  const { order } = await platform.withTx(systemActor('matrix'), (ctx) =>
    orders.open(ctx, {
      customerId: w.user('other').id,
      sellerId: w.user('owner').id,
      serviceId,
      title: 'Логотип',
      price: 150_000,
      days: 5,
      revisions: 2,
    }),
  );
  if (state === 'awaiting_payment') return order.id;
  await payOrderForTest(w.app, order.id);
  if (state === 'delivered' || state === 'completed')
    await orders.deliver(w.user('owner'), order.id, { message: 'Готово', files: [] });
  if (state === 'completed') await orders.accept(w.user('other'), order.id);
  if (state === 'proposed') await orders.proposeCancel(w.user('owner'), order.id, { reason: 'Не успеваю' });
  return order.id;
}
/** A step of the order's one party (404 to strangers, 403 to the other party and admins; 'confirmed' guard). */
const orderParty = (party: 'owner' | 'other'): Expect => ({
  ...confirmedOnly(404),
  owner: party === 'owner' ? 200 : 403,
  other: party === 'other' ? 200 : 403,
  admin: 403,
});

/** Custom offers (ADR 066): what the owner (the seller) offers `other` in a fresh paid order's chat. */
const offerInput = {
  title: 'Фирменный стиль',
  description: 'Логотип, визитки и бланк.',
  price: 300_000,
  days: 4,
  stages: null,
};
async function freshOffer(w: MatrixWorld): Promise<string> {
  const orderId = await freshOrder(w);
  return (await w.app.services.offers.create(w.user('owner'), orderId, offerInput, '203.0.113.1'))._id;
}

/** Disputes (issue 14): a dispute the owner (the seller) opened on a fresh paid order of theirs with `other`. */
async function freshDispute(w: MatrixWorld): Promise<string> {
  const orderId = await freshOrder(w);
  const dispute = await w.app.services.disputes.create(w.user('owner'), {
    order_id: orderId,
    reason: 'not_accepted',
    description: 'Заказчик не отвечает и не принимает работу уже неделю.',
    files: [],
  });
  return dispute._id;
}

/**
 * Reviews (issue 13): `other`'s review (as the customer) of a fresh completed order of the owner's service, hidden, or
 * published by the owner's review of their own.
 */
async function freshReview(w: MatrixWorld, published = true): Promise<string> {
  const { reviews } = w.app.services;
  const orderId = await freshOrder(w, 'completed');
  const review = await reviews.create(w.user('other'), orderId, { rating: 5, text: 'Отличная работа, спасибо!' });
  if (published) await reviews.create(w.user('owner'), orderId, { rating: 5, text: '' });
  return review._id;
}

/** A post of the admin's, a draft unless `published` (ADR 037). */
async function freshPost(w: MatrixWorld, published = true): Promise<string> {
  const { blog } = w.app.services;
  const admin = w.user('admin');
  const post = await blog.create(admin, {
    title: 'Как работает безопасная сделка',
    description: 'Коротко о том, как деньги ждут сдачи работы.',
    body: '## Шаги\n\n- оплата\n- работа',
    cover: null,
  });
  if (published) await blog.setStatus(admin, post._id, 'published');
  return post._id;
}
const BLOG_POST = {
  title: 'Как написать техническое задание',
  description: 'Что указать в задаче, чтобы получить точные отклики.',
  body: '# ТЗ\n\nТекст.',
  cover: null,
};
/** Appeals (issue 14): a fresh new question of the owner's to the administration (written directly: no daily limit). */
async function freshAppeal(w: MatrixWorld): Promise<string> {
  const [row] = await w.database.db
    .insert(appeals)
    .values({ authorId: w.user('owner').id, subject: 'question', text: 'Как вывести деньги на карту?' })
    .returning({ id: appeals.id });
  return row!.id;
}
let rules = 0;
const freshRuleBody = () => ({ path: `/matrix-old-${++rules}`, kind: 'redirect', target: '/services' });
/** A route rule made by the admin for one cell. */
async function freshRule(w: MatrixWorld): Promise<string> {
  return (await w.app.services.routeRules.save(w.user('admin'), { ...freshRuleBody(), kind: 'redirect' }))._id;
}

// ---------------------------------------------------------------------------------------------------------
// THE MATRIX: every endpoint of ROUTES, every actor.
// ---------------------------------------------------------------------------------------------------------

const MATRIX = {
  'health.live': { expect: everyone(), request: () => ({}) },
  'health.ready': { expect: everyone(), request: () => ({}) },

  'lookups.cities': { expect: everyone(), request: () => ({}) },
  'lookups.countries': { expect: everyone(), request: () => ({}) },
  'lookups.categories': { expect: everyone(), request: () => ({}) },
  'lookups.subCategories': { expect: everyone(), request: () => ({}) },
  'lookups.tags': { expect: signedIn(), request: () => ({}) },
  'lookups.catalogue': { expect: everyone(), request: () => ({ params: { file: 'AAAAAAAAAAAA.json' } }) },
  'rates.get': { expect: everyone(), request: () => ({}) },
  'payments.rates': { expect: signedIn(), request: () => ({}) },
  'routeRules.get': { expect: everyone(), request: () => ({ query: { path: '/services' } }) },

  // A registration is anyone's (a signed-in member may open another account).
  'auth.register': {
    writes: true,
    expect: everyone(),
    request: () => ({ body: registration() }),
  },
  // Each signs in with their own email and password (the visitor with the owner's). PRODUCT.md: a blocked
  // member cannot sign in.
  'auth.login': {
    expect: { ...everyone(200), blocked: 403 },
    request: (w, actor) => ({ body: { email: w.email(self(w, actor)), password: PASSWORD } }),
  },
  'auth.logoutAll': { writes: true, expect: signedIn(), request: () => ({}) },
  // The second factor (ADR 054). The sign-in's second step is public: the challenge is the credential. Only the
  // admin has a factor, so only their challenge and code sign in; the others' challenges lead nowhere.
  'auth.loginTwoFactor': {
    writes: true,
    expect: { ...everyone(400), admin: 200 },
    request: async (w, actor) => ({
      body: { challenge: await challengeFor(TEST_SECRET, w.user(self(w, actor))), code: await adminCode(w) },
    }),
  },
  'auth.stepUp': {
    expect: { ...signedIn(400), admin: 200 },
    request: async (w) => ({ body: { code: await adminCode(w) } }),
  },
  'auth.twoFactor': { expect: signedIn(), request: () => ({}) },
  // Setting up again while it is on is refused (the admin).
  'auth.twoFactorSetup': {
    writes: true,
    expect: { ...signedIn(), admin: 400 },
    request: () => ({ body: { password: PASSWORD } }),
  },
  // A first code for a set-up the actor started (the admin's is on already).
  'auth.twoFactorEnable': {
    writes: true,
    expect: { ...signedIn(), admin: 400 },
    request: async (w, actor) => {
      if (actor === 'anonymous' || actor === 'admin') return { body: { code: '123456' } };
      const { secret } = await w.app.services.twoFactor.setup(w.user(actor), PASSWORD);
      return { body: { code: codeAt(secret) } };
    },
  },
  'auth.twoFactorDisable': {
    writes: true,
    expect: { ...signedIn(400), admin: 200 },
    request: async (w) => ({ body: { password: PASSWORD, code: await adminCode(w) } }),
  },
  'auth.recoveryCodes': {
    writes: true,
    expect: { ...signedIn(400), admin: 200 },
    request: async (w) => ({ body: { code: await adminCode(w) } }),
  },
  // Passkeys (ADR 057): each member's own. Adding asks the admin (who has a factor) for a step-up, sent here.
  'auth.passkeys': { expect: signedIn(), request: () => ({}) },
  'auth.passkeyOptions': {
    writes: true,
    expect: signedIn(),
    request: async (w, actor) => ({ headers: await stepUp(w, actor) }),
  },
  // An answer to options made for the actor, from a fresh authenticator.
  'auth.passkeyAdd': {
    writes: true,
    expect: signedIn(),
    request: async (w, actor) => {
      const user = w.user(self(w, actor));
      const options = await w.app.services.passkeys.registrationOptions(user, PASSKEY_ORIGIN);
      return { body: { name: 'Ключ', response: new TestAuthenticator(PASSKEY_ORIGIN).register(options) } };
    },
  },
  // The owner's passkey: another's is 404, as an unknown one.
  'auth.passkeyRemove': {
    writes: true,
    expect: { ...signedIn(404), owner: 200 },
    request: async (w, actor) => ({ params: { id: (await ownerPasskey(w)).id }, headers: await stepUp(w, actor) }),
  },
  'auth.passkeyLoginOptions': { writes: true, expect: everyone(), request: () => ({ body: {} }) },
  // Each signs in with their own passkey (the visitor with the owner's); a blocked member cannot sign in.
  'auth.passkeyLogin': {
    writes: true,
    expect: { ...everyone(200), blocked: 403 },
    request: async (w, actor) => {
      const authenticator = new TestAuthenticator(PASSKEY_ORIGIN);
      await w.database.db.insert(passkeys).values(authenticator.row(w.user(self(w, actor)).id));
      const options = await w.app.services.passkeys.loginOptions(PASSKEY_ORIGIN, '192.0.2.1');
      return { body: { response: authenticator.assert(options) } };
    },
  },
  // Only the owner has a passkey here (those of earlier rows are dropped): the others have none to confirm with.
  'auth.stepUpPasskeyOptions': {
    writes: true,
    expect: { ...signedIn(400), owner: 200 },
    request: async (w) => {
      await w.database.db.delete(passkeys);
      await ownerPasskey(w);
      return {};
    },
  },
  // The owner's passkey answering the owner's step-up options; for anyone else it is a foreign passkey.
  'auth.stepUpPasskey': {
    writes: true,
    expect: { ...signedIn(400), owner: 200 },
    request: async (w) => {
      const { authenticator } = await ownerPasskey(w);
      const options = await w.app.services.passkeys.stepUpOptions(w.user('owner'), PASSKEY_ORIGIN);
      return { body: { response: authenticator.assert(options) } };
    },
  },
  // The link is the credential: whoever opens it confirms its account.
  'auth.confirm': {
    writes: true,
    expect: everyone(),
    request: async (w) => ({ body: { token: await w.fresh.emailToken('confirm') } }),
  },
  'auth.resendConfirmation': { writes: true, expect: signedIn(), request: () => ({}) },
  'auth.recover': { writes: true, expect: everyone(), request: (w) => ({ body: { email: w.email('owner') } }) },
  'auth.reset': {
    writes: true,
    expect: everyone(),
    request: async (w) => ({
      body: { token: await w.fresh.emailToken('reset'), password: 'new-secret-123', repeat_password: 'new-secret-123' },
    }),
  },
  // Sessions (ADR 055): each member's own. Ending a session of the owner is the owner's alone: to anyone else
  // (an admin too) it is 404, as an unknown session.
  'auth.sessions': { expect: signedIn(), request: () => ({}) },
  'auth.endSession': {
    writes: true,
    expect: { ...signedIn(404), owner: 200 },
    request: async (w) => ({
      params: {
        id: (await createSession(w.database.db, w.user('owner').id, { ip: '203.0.113.7', userAgent: null })).id,
      },
    }),
  },
  'auth.endOtherSessions': { writes: true, expect: signedIn(), request: () => ({}) },

  'users.me': { expect: signedIn(), request: () => ({}) },
  'users.update': { writes: true, expect: signedIn(), request: () => ({ body: { about: 'Делаю сайты и логотипы' } }) },
  // The owner's file as one's avatar: only the owner may.
  'users.setAvatar': {
    writes: true,
    expect: ownerOfPublic(signedIn()),
    request: (w) => ({ body: { filePath: w.fixed.file.filePath } }),
  },
  'users.changePassword': {
    writes: true,
    expect: signedIn(),
    request: async (w, actor) => ({
      body: { current_password: PASSWORD, password: 'new-secret-123', repeat_password: 'new-secret-123' },
      headers: await stepUp(w, actor),
    }),
  },
  'users.changeEmail': {
    writes: true,
    expect: signedIn(),
    request: async (w, actor) => ({
      body: { email: `new_${unique()}@example.com`, password: PASSWORD },
      headers: await stepUp(w, actor),
    }),
  },
  'users.setRole': {
    writes: true,
    mode: 'seller',
    expect: signedIn(),
    request: () => ({ body: { role: 'customer' } }),
  },
  'users.becomeSeller': { writes: true, expect: signedIn(), request: () => ({}) },

  'files.upload': {
    writes: true,
    expect: signedIn(),
    request: () => ({
      multipart: multipartBody([{ name: 'file', filename: 'макет.png', type: 'image/png', data: PNG }]),
    }),
  },
  // A file the owner sent in the chat: its members see it; a stranger must not learn it exists (files/policy.ts).
  'files.remove': {
    writes: true,
    expect: { ...signedIn(404), other: 403, owner: 200, admin: 403 },
    request: async (w) => ({ body: { filePath: (await w.fresh.chatFile()).filePath } }),
  },
  'files.download': {
    expect: { ...everyone(404), other: 200, owner: 200, admin: 200 },
    request: (w) => ({ wildcard: w.fixed.chatFile.filePath }),
  },

  'search.suggestions': { expect: everyone(), request: () => ({ query: { q: 'лого' } }) },

  'services.list': { expect: everyone(), request: () => ({}) },
  // Any confirmed member in seller mode; the admin is no seller.
  'services.create': {
    writes: true,
    mode: 'seller',
    expect: { ...confirmedOnly(), admin: 403 },
    request: () => ({ body: serviceInput }),
  },
  'services.mine': { expect: signedIn(), request: () => ({}) },
  // A paused service: its owner's and admins'.
  'services.get': { expect: ownerOrAdminSees(), request: (w) => ({ params: { id: w.fixed.pausedService } }) },
  'services.update': {
    writes: true,
    mode: 'seller',
    expect: ownerOfPublic(confirmedOnly()),
    request: async (w) => ({ params: { id: await w.fresh.service() }, body: serviceInput }),
  },
  'services.remove': {
    writes: true,
    expect: ownerOfPublic(signedIn()),
    request: async (w) => ({ params: { id: await w.fresh.service() } }),
  },
  'services.changeStatus': {
    writes: true,
    expect: ownerOfPublic(signedIn()),
    request: async (w) => ({ params: { id: await w.fresh.service() }, body: { action: 'pause' } }),
  },

  'projects.list': { expect: everyone(), request: () => ({}) },
  'projects.create': {
    writes: true,
    mode: 'customer',
    expect: { ...confirmedOnly(), admin: 403 },
    request: () => ({ body: projectInput }),
  },
  'projects.mine': { expect: signedIn(), request: () => ({}) },
  // An archived project: its owner's and admins'.
  'projects.get': { expect: ownerOrAdminSees(), request: (w) => ({ params: { id: w.fixed.archivedProject } }) },
  'projects.update': {
    writes: true,
    expect: ownerOfPublic(confirmedOnly()),
    request: async (w) => ({ params: { id: await w.fresh.project() }, body: projectInput }),
  },
  'projects.remove': {
    writes: true,
    expect: ownerOfPublic(signedIn()),
    request: async (w) => ({ params: { id: await w.fresh.project() } }),
  },

  'favorites.list': { expect: signedIn(), request: () => ({}) },
  'favorites.items': { expect: signedIn(), request: () => ({ query: { type: 'service' } }) },
  'favorites.recent': { expect: signedIn(), request: () => ({}) },
  'favorites.toggle': {
    writes: true,
    expect: signedIn(),
    request: (w) => ({ body: { id: w.fixed.service, type: 'service' } }),
  },
  'favorites.sync': {
    writes: true,
    expect: signedIn(),
    request: (w) => ({ body: { items: [{ id: w.fixed.project, type: 'project' }] } }),
  },

  'people.freelancers': { expect: everyone(), request: () => ({}) },
  'people.profile': { expect: everyone(), request: (w) => ({ params: { id: w.user('owner').id } }) },
  // Public services only (their visibility: services.db.test.ts).
  'services.ofSeller': { expect: everyone(), request: (w) => ({ params: { id: w.user('owner').id } }) },

  'chat.list': { expect: signedIn(), request: () => ({}) },
  'chat.listByOrder': { expect: signedIn(), request: () => ({}) },
  // Each member deletes the chat for themselves; admins read chats in the admin area, not as members.
  'chat.remove': {
    writes: true,
    expect: chatMembers(),
    request: async (w) => ({ params: { id: await w.fresh.chat() } }),
  },
  'chat.messages': { expect: chatMembers(), request: (w) => ({ params: { chat_id: w.fixed.chat } }) },
  'chat.send': {
    writes: true,
    expect: chatMembers(),
    request: (w) => ({ body: { message: 'Когда будет готово?', chat_id: w.fixed.chat } }),
  },
  'chat.lastMessage': { expect: chatMembers(), request: (w) => ({ params: { chatId: w.fixed.chat } }) },
  'chat.unseenTotal': { expect: signedIn(), request: () => ({}) },
  'chat.unseenInChat': { expect: chatMembers(), request: (w) => ({ params: { chatId: w.fixed.chat } }) },
  // A message of `other`, not yet seen by the owner; its sender may not mark it (403 "own message").
  'chat.markSeen': {
    writes: true,
    expect: { ...chatMembers(), other: 403 },
    request: async (w) => ({ params: { id: await w.fresh.message() }, body: { seen: true } }),
  },

  'admin.users.list': { expect: adminOnly(), request: () => ({}) },
  'admin.users.get': { expect: adminOnly(), request: (w) => ({ params: { id: w.user('owner').id } }) },
  'admin.users.block': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({
      params: { id: (await w.fresh.user()).id },
      body: { blocked: true, reason: 'Спам в сообщениях' },
    }),
  },
  'admin.users.setAdmin': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: (await w.fresh.user()).id }, body: { admin: true } }),
  },
  'admin.users.resetTwoFactor': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: (await w.fresh.user({ twoFactor: true })).id } }),
  },
  'admin.settings.get': { expect: adminOnly(), request: () => ({}) },
  'admin.settings.update': { writes: true, expect: adminOnly(), request: () => ({ body: { 'uploads.perHour': 60 } }) },
  'admin.searchSuggestions.list': { expect: adminOnly(), request: () => ({}) },
  'admin.searchSuggestions.hide': {
    writes: true,
    expect: adminOnly(),
    request: () => ({ params: { query: `логотип ${unique()}` } }),
  },
  'admin.services.list': { expect: adminOnly(), request: () => ({}) },
  'admin.services.get': { expect: adminOnly(), request: (w) => ({ params: { id: w.fixed.pausedService } }) },
  'admin.services.moderate': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({
      params: { id: await w.fresh.service() },
      body: { status: 'hidden', reason: 'Нарушает правила' },
    }),
  },
  'admin.services.update': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await w.fresh.service() }, body: serviceInput }),
  },
  'admin.projects.list': { expect: adminOnly(), request: () => ({}) },
  'admin.projects.get': { expect: adminOnly(), request: (w) => ({ params: { id: w.fixed.archivedProject } }) },
  'admin.projects.moderate': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({
      params: { id: await w.fresh.project() },
      body: { status: 'hidden', reason: 'Нарушает правила' },
    }),
  },
  'admin.projects.update': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await w.fresh.project() }, body: projectInput }),
  },
  'admin.chats.messages': { expect: adminOnly(), request: (w) => ({ params: { id: w.fixed.chat } }) },
  'admin.bids.list': { expect: adminOnly(), request: () => ({}) },
  'admin.bids.remove': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshBid(w, 'other', 'owner') } }),
  },

  // Notifications (issue 13, ADR 030): each member's own; another's notification does not exist for anyone else.
  'notifications.list': { expect: signedIn(), request: () => ({ query: {} }) },
  'notifications.unread': { expect: signedIn(), request: () => ({}) },
  'notifications.read': {
    writes: true,
    expect: { ...signedIn(404), owner: 200 },
    request: async (w) => ({ params: { id: await freshNotification(w, 'owner') } }),
  },
  'notifications.readAll': { writes: true, expect: signedIn(), request: () => ({}) },
  // The link of a letter: no sign-in, the signed token is the permission.
  'notifications.unsubscribeInfo': {
    expect: everyone(),
    request: (w) => ({ query: { token: unsubscribeTokenOf(w) } }),
  },
  'notifications.unsubscribe': {
    writes: true,
    expect: everyone(),
    request: (w) => ({ body: { token: unsubscribeTokenOf(w) } }),
  },

  // Bids (issue 12). Everyone may ask for their own bid on a project (null without one).
  'users.myBid': { expect: signedIn(), request: (w) => ({ params: { id: w.fixed.project } }) },
  'bids.flag': { expect: signedIn(), request: () => ({}) },
  'bids.clearFlag': { writes: true, expect: signedIn(), request: () => ({}) },
  // A member in seller mode on someone else's active project; the customer may not bid on their own, the admin
  // is no seller.
  'bids.create': {
    writes: true,
    mode: 'seller',
    expect: { ...confirmedOnly(), owner: 403, admin: 403 },
    request: async (w) => ({ params: { id: await w.fresh.project() }, body: bidInput }),
  },
  // The customer's (and admins') list; members who see the project get 403.
  'bids.ofProject': {
    expect: { ...signedIn(403), owner: 200, admin: 200 },
    request: (w) => ({ params: { id: w.fixed.project } }),
  },
  'bids.mine': { expect: signedIn(), request: () => ({}) },
  'bids.received': { expect: signedIn(), request: () => ({}) },
  // The owner's bid on other's project: the customer (other) and admins see it (403), strangers do not (404).
  'bids.update': {
    writes: true,
    expect: { ...signedIn(404), owner: 200, other: 403, admin: 403 },
    request: async (w) => ({ params: { id: await freshBid(w, 'owner', 'other') }, body: bidInput }),
  },
  'bids.withdraw': {
    writes: true,
    expect: { ...signedIn(404), owner: 200, other: 403, admin: 403 },
    request: async (w) => ({ params: { id: await freshBid(w, 'owner', 'other') } }),
  },
  // Other's bid on the owner's project: only the owner (its customer) accepts.
  'bids.accept': {
    writes: true,
    expect: { ...confirmedOnly(404), owner: 200, other: 403, admin: 403 },
    request: async (w) => ({
      params: { id: await freshBid(w, 'other', 'owner') },
      body: { price: bidInput.price, days: bidInput.days },
    }),
  },

  // Custom offers in an order chat (ADR 066): the order's parties see them; its seller (the owner) makes and withdraws
  // them, its customer (other) accepts them or asks for a change; anyone else is told the order does not exist.
  'offers.ofOrder': {
    expect: { ...signedIn(404), owner: 200, other: 200 },
    request: async (w) => ({ params: { id: await freshOrder(w) } }),
  },
  'offers.create': {
    writes: true,
    expect: orderParty('owner'),
    request: async (w) => ({ params: { id: await freshOrder(w) }, body: offerInput }),
  },
  'offers.accept': {
    writes: true,
    expect: orderParty('other'),
    request: async (w) => ({ params: { id: await freshOffer(w) } }),
  },
  'offers.change': {
    writes: true,
    expect: orderParty('other'),
    request: async (w) => ({ params: { id: await freshOffer(w) }, body: { comment: 'Дешевле' } }),
  },
  'offers.withdraw': {
    writes: true,
    expect: orderParty('owner'),
    request: async (w) => ({ params: { id: await freshOffer(w) } }),
  },

  // Orders (issue 12).
  // Anyone confirmed orders someone else's active service; the seller their own is refused.
  'orders.create': {
    writes: true,
    expect: { ...confirmedOnly(), owner: 403 },
    request: async (w) => ({ body: { service_id: await w.fresh.service() } }),
  },
  'orders.list': { expect: signedIn(), request: () => ({ query: { role: 'selling' } }) },
  // Its parties and admins; anyone else does not learn it exists. An unpaid order of a service is its customer's
  // alone: the seller (the owner) learns of it once it is paid (ADR 042).
  'orders.get': {
    expect: { ...signedIn(404), other: 200, admin: 200 },
    request: async (w) => ({ params: { id: await freshOrder(w, 'awaiting_payment') } }),
  },
  'orders.deliver': {
    writes: true,
    expect: orderParty('owner'),
    request: async (w) => ({ params: { id: await freshOrder(w) }, body: { message: 'Готово, принимайте' } }),
  },
  'orders.revision': {
    writes: true,
    expect: orderParty('other'),
    request: async (w) => ({ params: { id: await freshOrder(w, 'delivered') }, body: { message: 'Поправьте цвета' } }),
  },
  'orders.accept': {
    writes: true,
    expect: orderParty('other'),
    request: async (w) => ({ params: { id: await freshOrder(w, 'delivered') } }),
  },
  // The customer cancels their unpaid order; its seller does not know of it yet (ADR 042); admins do not act.
  'orders.cancel': {
    writes: true,
    expect: { ...orderParty('owner'), owner: 404, other: 200 },
    request: async (w) => ({ params: { id: await freshOrder(w, 'awaiting_payment') }, body: { reason: 'Передумал' } }),
  },
  'orders.proposeCancel': {
    writes: true,
    expect: { ...orderParty('owner'), other: 200 },
    request: async (w) => ({ params: { id: await freshOrder(w) }, body: { reason: 'Не сошлись в сроках' } }),
  },
  // The owner proposed: only `other` may answer (the owner's own answer is a 403).
  'orders.answerCancel': {
    writes: true,
    expect: orderParty('other'),
    request: async (w) => ({ params: { id: await freshOrder(w, 'proposed') }, body: { accept: false } }),
  },
  'admin.orders.list': { expect: adminOnly(), request: () => ({ query: { status: 'in_progress' } }) },
  'admin.orders.get': {
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshOrder(w, 'awaiting_payment') } }),
  },

  // Payments, balances, withdrawals (issue 12).
  'payments.order': {
    expect: orderCustomerOnly(),
    request: async (w) => ({ params: { orderId: await ownerOrder(w) } }),
  },
  'payments.quote': {
    writes: true,
    expect: orderCustomerOnly(),
    request: async (w) => {
      await withRates(w);
      return { body: { order_id: await ownerOrder(w), method: 'usdt' } };
    },
  },
  'payments.pay': {
    writes: true,
    expect: orderCustomerOnly(),
    request: async (w) => ({
      body: { order_id: await ownerOrder(w), method: 'card' },
      headers: { 'idempotency-key': unique() },
    }),
  },
  // A top-up is the caller's own balance: anyone signed in, for themselves (ADR 062).
  'payments.topUp': {
    writes: true,
    expect: signedIn(),
    request: () => ({ body: { amount: 100_000, method: 'card' }, headers: { 'idempotency-key': unique() } }),
  },
  'payments.mine': { expect: signedIn(), request: () => ({}) },
  // The signature is the credential, not the caller: a signed event (here for a payment nobody made) is taken from anyone.
  'payments.webhook': {
    writes: true,
    expect: everyone(),
    request: (w) => {
      const { body, headers } = w.app.services.payments.sandbox.event({
        eventId: `evt_${unique()}`,
        providerRef: `sb_${unique()}`,
        outcome: 'pay',
        currency: 'RUB',
        amount: 150_000,
      });
      return {
        params: { provider: 'sandbox' },
        body: JSON.parse(body),
        headers: { 'x-signature': headers['x-signature'] },
      };
    },
  },
  // The sandbox provider's page: the payment's unguessable id in the link is the credential (as at a real provider).
  'payments.sandbox': {
    expect: everyone(),
    request: async (w) => ({ params: { paymentId: await ownerCardPayment(w) } }),
  },
  'payments.sandboxDecide': {
    writes: true,
    expect: everyone(),
    request: async (w) => ({ params: { paymentId: await ownerCardPayment(w), decision: 'decline' } }),
  },
  'finance.balance': { expect: signedIn(), request: () => ({}) },
  'finance.entries': { expect: signedIn(), request: () => ({}) },
  // The dashboard and referral page (issue 13): each caller's own figures, so every signed-in member gets theirs.
  'dashboard.mine': { expect: signedIn(), request: () => ({ query: { period: '7', role: 'seller' } }) },
  'referrals.mine': { expect: signedIn(), request: () => ({}) },
  // One's own money, with a confirmed email (PRODUCT.md).
  'withdrawals.create': {
    writes: true,
    expect: confirmedOnly(),
    request: async (w, actor) => {
      await fundActor(w, actor);
      return {
        body: { amount: 60_000, method: 'card', payout_token: 'pt-matrix', card: { first6: '411111', last4: '1111' } },
        headers: await stepUp(w, actor),
      };
    },
  },
  'withdrawals.mine': { expect: signedIn(), request: () => ({}) },
  // A payout out of a safe deal waiting for details (ADR 053) is its seller's only: anyone else's is a 404.
  'withdrawals.details': {
    writes: true,
    expect: { ...confirmedOnly(404), owner: 200 },
    request: async (w, actor) => ({
      params: { id: await ownerAwaitingPayout(w) },
      body: { method: 'yoomoney', destination: '410011758831136' },
      headers: await stepUp(w, actor),
    }),
  },
  // One's own self-employment (ADR 050): without ЮKassa the declaration is a 409 for whoever may make it.
  'finance.selfEmployed': { expect: signedIn(), request: () => ({}) },
  'finance.declareSelfEmployed': {
    writes: true,
    expect: confirmedOnly(409),
    request: async (w, actor) => ({ body: { phone: '+7 900 123-45-67' }, headers: await stepUp(w, actor) }),
  },
  'admin.payments.list': { expect: adminOnly(), request: () => ({ query: { status: 'pending' } }) },
  // The provider's view of a payment: the sandbox keeps no payments of its own to describe (404 to the admin).
  'admin.payments.provider': {
    expect: adminOnly(404),
    request: async (w) => ({ params: { id: await ownerCardPayment(w) } }),
  },
  // Reconciliation's differences (issue 27): admins only; resolving is audited; a difference the provider's outcome cannot fix is 409.
  'admin.payments.differences': { expect: adminOnly(), request: () => ({ query: { limit: '10' } }) },
  'admin.payments.resolveDifference': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({
      params: { id: await freshDifference(w) },
      body: { note: 'Проверено в кабинете провайдера' },
    }),
  },
  'admin.payments.applyDifference': {
    writes: true,
    expect: adminOnly(409),
    request: async (w) => ({ params: { id: await freshDifference(w) } }),
  },
  'admin.withdrawals.list': { expect: adminOnly(), request: () => ({ query: { status: 'pending' } }) },
  // The full card number of a request: admins only, audited (ADR 046).
  'admin.withdrawals.approve': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await ownerWithdrawal(w) } }),
  },
  'admin.withdrawals.reject': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({
      params: { id: await ownerWithdrawal(w) },
      body: { reason: 'Реквизиты не совпадают с владельцем' },
    }),
  },

  // Reviews (issue 13, ADR 029). A completed order's parties review it (each cell a fresh order); admins do not
  // review for them; anyone else does not learn the order exists.
  'reviews.create': {
    writes: true,
    expect: { ...confirmedOnly(404), owner: 200, other: 200, admin: 403 },
    request: async (w) => ({
      params: { id: await freshOrder(w, 'completed') },
      body: { rating: 5, text: 'Всё сделано в срок, спасибо!' },
    }),
  },
  // The person a published review is about (the owner) answers it; its author, strangers and admins may read it, not answer.
  'reviews.answer': {
    writes: true,
    expect: { ...confirmedOnly(403), owner: 200 },
    request: async (w) => ({ params: { id: await freshReview(w) }, body: { text: 'Спасибо за отзыв!' } }),
  },
  'reviews.mine': { expect: signedIn(), request: () => ({ query: { box: 'given' } }) },
  'reviews.pending': { expect: signedIn(), request: () => ({}) },
  'reviews.ofService': { expect: everyone(), request: (w) => ({ params: { id: w.fixed.service } }) },
  'reviews.ofUser': { expect: everyone(), request: (w) => ({ params: { id: w.user('owner').id } }) },
  'admin.reviews.remove': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshReview(w) } }),
  },

  // The blog (ADR 037): guests read published posts; admins write.
  'blog.list': { expect: everyone(), request: () => ({ query: { page: '1' } }) },
  'blog.get': { expect: everyone(), request: async (w) => ({ params: { id: await freshPost(w) } }) },
  'admin.blog.list': { expect: adminOnly(), request: () => ({ query: { page: '1' } }) },
  'admin.blog.get': { expect: adminOnly(), request: async (w) => ({ params: { id: await freshPost(w, false) } }) },
  'admin.blog.create': { writes: true, expect: adminOnly(), request: () => ({ body: BLOG_POST }) },
  'admin.blog.update': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshPost(w, false) }, body: BLOG_POST }),
  },
  'admin.blog.setStatus': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshPost(w, false) }, body: { status: 'published' } }),
  },
  'admin.blog.remove': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshPost(w) } }),
  },
  'admin.blog.preview': { expect: adminOnly(), request: () => ({ body: { body: '**Жирный** текст' } }) },
  // Appeals (issue 14): any member writes one; it is its author's (others are told it does not exist) and the admins'.
  'appeals.create': {
    writes: true,
    expect: signedIn(),
    request: () => ({ body: { subject: 'question', text: 'Как вывести деньги на карту?' } }),
  },
  'appeals.mine': { expect: signedIn(), request: () => ({ query: {} }) },
  // A complaint about the owner's public service: anyone signed in may name it, the owner not their own (400).
  'appeals.target': {
    expect: { ...signedIn(), owner: 400 },
    request: (w) => ({ query: { subject: 'service', object: w.fixed.service } }),
  },
  'appeals.get': {
    expect: { ...signedIn(404), owner: 200 },
    request: async (w) => ({ params: { id: await freshAppeal(w) } }),
  },
  'admin.appeals.list': { expect: adminOnly(), request: () => ({ query: { status: 'new' } }) },
  'admin.appeals.get': { expect: adminOnly(), request: async (w) => ({ params: { id: await freshAppeal(w) } }) },
  'admin.appeals.take': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshAppeal(w) } }),
  },
  'admin.appeals.answer': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({
      params: { id: await freshAppeal(w) },
      body: { answer: 'Выводите через раздел «Финансы».' },
    }),
  },
  // The admin area (issue 14, ADR 036): the overview, route rules (each cell its own path) and the audit log.
  'admin.overview': { expect: adminOnly(), request: () => ({ query: { period: '7' } }) },
  'admin.routeRules.list': { expect: adminOnly(), request: () => ({ query: { kind: 'redirect' } }) },
  'admin.routeRules.create': { writes: true, expect: adminOnly(), request: () => ({ body: freshRuleBody() }) },
  'admin.routeRules.update': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshRule(w) }, body: freshRuleBody() }),
  },
  'admin.routeRules.remove': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshRule(w) } }),
  },
  'admin.audit.list': {
    expect: adminOnly(),
    request: (w) => ({ query: { actor: w.user('admin').id, action: 'settings.' } }),
  },
  // Disputes (issue 14): either party of a paid order opens one (an admin may not for them, a stranger does not
  // know the order); only its opener cancels it.
  'disputes.create': {
    writes: true,
    expect: { ...orderParty('owner'), other: 200 },
    request: async (w) => ({
      // A reason either side may give (ADR 039): the owner is the seller, `other` the customer.
      body: {
        order_id: await freshOrder(w),
        reason: 'no_contact',
        description: 'Другая сторона не отвечает на сообщения уже неделю.',
      },
    }),
  },
  'disputes.mine': { expect: signedIn(), request: () => ({ query: { status: 'open' } }) },
  'disputes.cancel': {
    writes: true,
    expect: { ...signedIn(404), owner: 200, other: 403, admin: 403 },
    request: async (w) => ({ params: { id: await freshDispute(w) } }),
  },
  'admin.disputes.list': { expect: adminOnly(), request: () => ({ query: { status: 'open', flagged: 'false' } }) },
  'admin.disputes.get': { expect: adminOnly(), request: async (w) => ({ params: { id: await freshDispute(w) } }) },
  'admin.disputes.take': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshDispute(w) } }),
  },
  'admin.disputes.resolve': {
    writes: true,
    expect: adminOnly(),
    request: async (w) => ({ params: { id: await freshDispute(w) }, body: { outcome: 'split', seller_percent: 30 } }),
  },
  // Personal data (issue 28, ADR 052): the texts are everyone's; a consent is the signed-in person's own (the
  // version read must be the current one); the operator's views and versions are admins'.
  'privacy.document': { expect: everyone(), request: () => ({ params: { kind: 'consent' } }) },
  'privacy.status': { expect: signedIn(), request: () => ({}) },
  'privacy.accept': {
    writes: true,
    expect: signedIn(),
    request: async (w) => ({ body: { version: await currentConsentVersion(w) } }),
  },
  'privacy.export': { expect: signedIn(), request: () => ({}) },
  // The actor's own account: a fresh request each cell (any earlier one of theirs is removed first). Every
  // signed-in actor reaches the command, which refuses its own account's state with 409: an admin's account is not
  // deleted, and each member is given money first (earlier rows leave some with disputes too), so the answer does
  // not depend on which rows ran before. The accepted request is privacy's own db test.
  'privacy.requestDeletion': {
    writes: true,
    expect: signedIn(409),
    request: async (w, actor) => {
      await w.database.db
        .delete(privacyDeletionRequests)
        .where(eq(privacyDeletionRequests.userId, w.user(self(w, actor)).id));
      await fundActor(w, actor, 100);
      return { body: { password: PASSWORD } };
    },
  },
  'privacy.cancelDeletion': {
    writes: true,
    expect: signedIn(),
    request: async (w, actor) => {
      const userId = w.user(self(w, actor)).id;
      await w.database.db.delete(privacyDeletionRequests).where(eq(privacyDeletionRequests.userId, userId));
      await w.database.db.insert(privacyDeletionRequests).values({ userId, dueAt: new Date(Date.now() + 86_400_000) });
      return {};
    },
  },
  'admin.privacy.documents': { expect: adminOnly(), request: () => ({}) },
  'admin.privacy.publish': {
    writes: true,
    expect: adminOnly(),
    request: () => ({
      params: { kind: 'policy' },
      body: {
        title: 'Политика обработки персональных данных',
        body: 'Новая редакция политики: что мы собираем, зачем, сколько храним и кому передаём.',
      },
    }),
  },
  'admin.privacy.consents': { expect: adminOnly(), request: () => ({ query: { page: '1' } }) },
  'admin.privacy.deletions': { expect: adminOnly(), request: () => ({ query: { page: '1' } }) },
} satisfies Record<RouteName, Row>;

/**
 * More cells for some endpoints: the same request about a resource in another state (public or not, of a blocked
 * person, naming someone else's file). Not part of the ROUTES coverage check; each is one more line of evidence.
 */
const VARIANTS: (Row & { name: RouteName; label: string })[] = [
  {
    name: 'blog.get',
    label: 'a draft post (only admins may preview it; anyone else is told it does not exist)',
    expect: { ...everyone(404), admin: 200 },
    request: async (w) => ({ params: { id: await freshPost(w, false) } }),
  },
  {
    name: 'appeals.target',
    label: "a complaint about the owner's paused service (the owner's and admins' only: everyone else 404)",
    expect: { ...signedIn(404), owner: 400, admin: 200 },
    request: (w) => ({ query: { subject: 'service', object: w.fixed.pausedService } }),
  },
  {
    name: 'appeals.target',
    label: "an objection to the moderation of the owner's paused service (the owner's own only)",
    expect: { ...signedIn(404), owner: 200 },
    request: (w) => ({ query: { subject: 'moderation', object: w.fixed.pausedService } }),
  },
  {
    name: 'reviews.answer',
    label: 'a hidden review (double-blind: the person it is about does not know it exists; its author and admins do)',
    writes: true,
    expect: { ...confirmedOnly(404), other: 403, admin: 403 },
    request: async (w) => ({ params: { id: await freshReview(w, false) }, body: { text: 'Спасибо за отзыв!' } }),
  },
  {
    name: 'services.get',
    label: 'an active service',
    expect: everyone(),
    request: (w) => ({ params: { id: w.fixed.service } }),
  },
  {
    name: 'services.get',
    label: "an active service of the blocked member (PRODUCT.md: a blocked person's listings are hidden)",
    expect: { ...everyone(404), admin: 200 },
    request: async (w) => ({ params: { id: await w.fresh.service({}, 'blocked') } }),
  },
  {
    name: 'services.update',
    label: 'a paused service (a stranger must not learn it exists)',
    writes: true,
    mode: 'seller',
    expect: { ...confirmedOnly(404), owner: 200, admin: 403 },
    request: async (w) => ({ params: { id: await w.fresh.service({ status: 'paused' }) }, body: serviceInput }),
  },
  {
    name: 'services.remove',
    label: 'a paused service',
    writes: true,
    expect: { ...signedIn(404), owner: 200, admin: 403 },
    request: async (w) => ({ params: { id: await w.fresh.service({ status: 'paused' }) } }),
  },
  {
    name: 'projects.get',
    label: 'an active project',
    expect: everyone(),
    request: (w) => ({ params: { id: w.fixed.project } }),
  },
  {
    name: 'projects.get',
    label: 'a project hidden by an admin',
    expect: ownerOrAdminSees(),
    request: async (w) => ({ params: { id: await w.fresh.project({ status: 'hidden' }) } }),
  },
  {
    name: 'projects.remove',
    label: 'an archived project',
    writes: true,
    expect: { ...signedIn(404), owner: 200, admin: 403 },
    request: async (w) => ({ params: { id: await w.fresh.project({ status: 'archived' }) } }),
  },
  {
    name: 'files.download',
    label: "a public file (a project's attachment, never sent in a chat)",
    expect: everyone(),
    request: (w) => ({ wildcard: w.fixed.file.filePath }),
  },
  {
    name: 'files.download',
    label: "an upload nothing uses yet (its owner's and admins' alone, ADR 041)",
    expect: ownerOrAdminSees(),
    request: (w) => ({ wildcard: w.fixed.unusedFile.filePath }),
  },
  {
    name: 'files.download',
    label: "an appeal's attachment (its author's and admins' alone, ADR 041)",
    expect: ownerOrAdminSees(),
    request: (w) => ({ wildcard: w.fixed.appealFile.filePath }),
  },
  {
    name: 'files.remove',
    label: 'a public file',
    writes: true,
    expect: ownerOfPublic(signedIn()),
    request: async (w) => ({ body: { filePath: (await w.fresh.file()).filePath } }),
  },
  {
    name: 'people.profile',
    label: "the blocked member's page (PRODUCT.md: it disappears from the public)",
    expect: { ...everyone(404), admin: 200 },
    request: (w) => ({ params: { id: w.user('blocked').id } }),
  },
  {
    name: 'favorites.toggle',
    label: 'a paused service',
    writes: true,
    expect: signedIn(404),
    request: (w) => ({ body: { id: w.fixed.pausedService, type: 'service' } }),
  },
  {
    name: 'users.setAvatar',
    label: "the owner's file sent in the chat (403 for any path not one's own, existing or not: nothing leaks)",
    writes: true,
    expect: ownerOfPublic(signedIn()),
    request: (w) => ({ body: { filePath: w.fixed.chatFile.filePath } }),
  },
  {
    name: 'services.create',
    label: "with the owner's public file as an image (400: not one's own upload)",
    writes: true,
    mode: 'seller',
    expect: { ...confirmedOnly(400), owner: 200, admin: 403 },
    request: (w) => ({ body: { ...serviceInput, images: [w.fixed.file.url] } }),
  },
  {
    name: 'projects.create',
    label: "with the owner's chat file as an attachment (400: not one's own upload)",
    writes: true,
    mode: 'customer',
    expect: { ...confirmedOnly(400), owner: 200, admin: 403 },
    request: (w) => ({ body: { ...projectInput, attachments: [w.fixed.chatFile.url] } }),
  },
  {
    name: 'services.changeStatus',
    label: "resuming one's own paused service (PRODUCT.md: publishing needs a confirmed email)",
    writes: true,
    expect: {
      ...signedIn(),
      unconfirmed: 403,
    },
    request: async (w, actor) => ({
      params: { id: await w.fresh.service({ status: 'paused' }, actor === 'anonymous' ? 'owner' : actor) },
      body: { action: 'resume' },
    }),
  },
  {
    name: 'chat.send',
    label: "with the owner's chat file attached",
    writes: true,
    expect: { ...chatMembers(), other: 403 },
    request: (w) => ({ body: { message: 'Пересылаю', chat_id: w.fixed.chat, files: [w.fixed.chatFile.url] } }),
  },
];

/** Names of ROUTES the matrix leaves out on purpose, with the reason. None today: /uploads/* is a row too. */
const EXEMPT: Partial<Record<RouteName, string>> = {};

// ---------------------------------------------------------------------------------------------------------

const RUSSIAN = /[А-Яа-яЁё]/;
const rows = MATRIX as Record<string, Row>;
let w: MatrixWorld;
const defects: string[] = [];

beforeAll(async () => {
  w = await createMatrixWorld();
}, 60_000);

afterAll(async () => {
  if (defects.length) console.warn(`authorization matrix: ${defects.length} known defect(s)\n${defects.join('\n')}`);
  await w?.close();
});

describe('authorization matrix', () => {
  it('declares every endpoint of ROUTES, and nothing else', () => {
    const names = Object.keys(ROUTES);
    const missing = names.filter((name) => !(name in rows) && !(name in EXEMPT));
    const unknown = Object.keys(rows).filter((name) => !(name in ROUTES));
    expect(missing, `endpoints of ROUTES missing from MATRIX: ${missing.join(', ')}`).toEqual([]);
    expect(unknown, `MATRIX rows that are not in ROUTES: ${unknown.join(', ')}`).toEqual([]);
    expect(
      Object.keys(EXEMPT).filter((name) => !(name in ROUTES)),
      'EXEMPT names not in ROUTES',
    ).toEqual([]);
  });

  for (const name of Object.keys(ROUTES) as RouteName[]) {
    if (name in EXEMPT) continue;
    it(`${name} (${ROUTES[name]})`, async () => {
      expect(rows[name], `MATRIX declares no row for ${name}`).toBeDefined();
      await check(name, rows[name]!);
    });
  }

  it("counts a blocked member's token for nothing, whether held before the block or signed after it", async () => {
    const fresh = await w.app.services.tokens.sign(w.user('blocked'));
    const res = await w.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `Bearer ${fresh}` },
    });
    expect(res.statusCode).toBe(401);
    expect((await w.send('users.me', 'blocked', {})).status).toBe(401);
  });

  for (const variant of VARIANTS) {
    it(`${variant.name}: ${variant.label}`, () => check(variant.name, variant, variant.label));
  }
});

/** Sends the row's request as every actor and compares the statuses with the row's. */
async function check(name: RouteName, row: Row, label = '') {
  const got = {} as Record<Actor, number>;
  const wanted = {} as Record<Actor, number>;
  const refusals: string[] = [];
  for (const actor of ACTORS) {
    if (row.mode) await w.setMode(row.mode);
    const request = await row.request(w, actor);
    const answer = await w.send(name, actor, request);
    if (row.writes || row.mode) await w.restoreActors();
    got[actor] = answer.status;
    const cell = row.expect[actor];
    if (typeof cell === 'number') wanted[actor] = cell;
    else {
      // Known defect: today's status until it is fixed, then the table must say the right one.
      wanted[actor] = cell.today;
      if (answer.status === cell.today)
        defects.push(`DEFECT ${name} as ${actor}: ${cell.today}, should be ${cell.expected} (${cell.defect})`);
    }
    if (answer.status >= 400 && answer.status < 500 && !RUSSIAN.test(answer.message))
      refusals.push(`${actor} ${answer.status} "${answer.message}"`);
  }
  expect(got, `${name}${label ? `, ${label}` : ''}: status by actor`).toEqual(wanted);
  expect(refusals, `${name}: refusals without a Russian message`).toEqual([]);
}
