// Every HTTP endpoint of the API by name: its method and path (ADR 015). The schemas and the access of each one
// are in contract/endpoints/*; this file has none, so the browser's client can import it without them. The
// server registers its routes by these names, the web calls them by name (web/lib/api.ts), and the
// authorization matrix and the fuzz suite walk this table.
export const ROUTES = {
  'health.live': 'GET /api/health',
  'health.ready': 'GET /api/ready',

  'lookups.cities': 'GET /api/cities/',
  'lookups.countries': 'GET /api/countries/',
  'lookups.categories': 'GET /api/categories/',
  'lookups.subCategories': 'GET /api/categories/sub',
  'lookups.tags': 'GET /api/tag',
  'lookups.catalogue': 'GET /catalogue/:file',
  'rates.get': 'GET /api/rates',
  'payments.rates': 'GET /api/payments/rates',
  'routeRules.get': 'GET /api/route-rules',

  'auth.register': 'POST /api/auth/register',
  'auth.login': 'POST /api/auth/login',
  'auth.logoutAll': 'POST /api/auth/logout-all',
  'auth.confirm': 'POST /api/auth/confirm',
  'auth.resendConfirmation': 'POST /api/auth/confirm/resend',
  'auth.recover': 'POST /api/auth/recover',
  'auth.reset': 'POST /api/auth/reset',
  'auth.sessions': 'GET /api/auth/sessions',
  'auth.endSession': 'DELETE /api/auth/sessions/:id',
  'auth.endOtherSessions': 'POST /api/auth/sessions/end-others',
  // The second factor (ADR 054).
  'auth.loginTwoFactor': 'POST /api/auth/login/two-factor',
  'auth.stepUp': 'POST /api/auth/step-up',
  'auth.twoFactor': 'GET /api/auth/two-factor',
  'auth.twoFactorSetup': 'POST /api/auth/two-factor/setup',
  'auth.twoFactorEnable': 'POST /api/auth/two-factor/enable',
  'auth.twoFactorDisable': 'POST /api/auth/two-factor/disable',
  'auth.recoveryCodes': 'POST /api/auth/two-factor/recovery-codes',
  // Passkeys (ADR 057).
  'auth.passkeys': 'GET /api/auth/passkeys',
  'auth.passkeyOptions': 'POST /api/auth/passkeys/options',
  'auth.passkeyAdd': 'POST /api/auth/passkeys',
  'auth.passkeyRemove': 'DELETE /api/auth/passkeys/:id',
  'auth.passkeyLoginOptions': 'POST /api/auth/passkeys/login/options',
  'auth.passkeyLogin': 'POST /api/auth/passkeys/login',
  'auth.stepUpPasskeyOptions': 'POST /api/auth/step-up/passkey/options',
  'auth.stepUpPasskey': 'POST /api/auth/step-up/passkey',

  'users.me': 'GET /api/users/me/',
  'users.update': 'PATCH /api/users/me',
  'users.setAvatar': 'PUT /api/users/me/avatar',
  'users.changePassword': 'PUT /api/users/me/password',
  'users.changeEmail': 'PUT /api/users/me/email',
  'users.setRole': 'PUT /api/users/me/role',
  'users.becomeSeller': 'POST /api/users/me/become-seller',

  'files.upload': 'POST /api/files/single',
  'files.remove': 'DELETE /api/files/single',
  'files.download': 'GET /uploads/*',

  'search.suggestions': 'GET /api/search/suggestions',

  'services.list': 'GET /api/services',
  'services.create': 'POST /api/services',
  'services.mine': 'GET /api/services/my',
  'services.get': 'GET /api/services/:id',
  'services.ofSeller': 'GET /api/users/:id/services',
  'services.update': 'PUT /api/services/:id',
  'services.remove': 'DELETE /api/services/:id',
  'services.changeStatus': 'PATCH /api/services/:id/status',

  'projects.list': 'GET /api/projects',
  'projects.create': 'POST /api/projects',
  'projects.mine': 'GET /api/projects/my',
  'projects.get': 'GET /api/projects/:id',
  'projects.update': 'PUT /api/projects/:id',
  'projects.remove': 'DELETE /api/projects/:id',

  'favorites.list': 'GET /api/favorites',
  'favorites.items': 'GET /api/favorites/items',
  'favorites.recent': 'GET /api/favorites/recent',
  'favorites.toggle': 'POST /api/favorites/toggle',
  'favorites.sync': 'POST /api/favorites/sync',

  'people.freelancers': 'GET /api/freelancers',
  'people.profile': 'GET /api/users/:id',

  'chat.list': 'GET /api/chat/my',
  'chat.listByOrder': 'GET /api/chat/my_by_order',
  'chat.remove': 'DELETE /api/chat/:id',
  'chat.messages': 'GET /api/messages/chat/:chat_id',
  'chat.send': 'POST /api/messages/',
  'chat.lastMessage': 'GET /api/messages/last_message/:chatId',
  'chat.unseenTotal': 'GET /api/messages/unseen/count',
  'chat.unseenInChat': 'GET /api/messages/:chatId/unseen/count',
  'chat.markSeen': 'PUT /api/messages/:id',

  // Bids (issue 12; SPEC §7 names users.myBid and the bids flag).
  'users.myBid': 'GET /api/users/my_bid/:id',
  'bids.flag': 'GET /api/notifications/bids/flag',
  'bids.clearFlag': 'PUT /api/notifications/bids/flag',
  'bids.create': 'POST /api/projects/:id/bids',
  'bids.ofProject': 'GET /api/projects/:id/bids',
  'bids.mine': 'GET /api/bids/my',
  'bids.received': 'GET /api/bids/received',
  'bids.update': 'PUT /api/bids/:id',
  'bids.withdraw': 'DELETE /api/bids/:id',
  'bids.accept': 'POST /api/bids/:id/accept',
  // Custom offers in an order chat (ADR 066).
  'offers.ofOrder': 'GET /api/orders/:id/offers',
  'offers.create': 'POST /api/orders/:id/offers',
  'offers.accept': 'POST /api/offers/:id/accept',
  'offers.change': 'POST /api/offers/:id/change',
  'offers.withdraw': 'POST /api/offers/:id/withdraw',

  // Notifications (issue 13, ADR 030).
  'notifications.list': 'GET /api/notifications',
  'notifications.unread': 'GET /api/notifications/unread',
  'notifications.read': 'PUT /api/notifications/:id/read',
  'notifications.readAll': 'PUT /api/notifications/read',
  'notifications.unsubscribeInfo': 'GET /api/notifications/unsubscribe',
  'notifications.unsubscribe': 'POST /api/notifications/unsubscribe',

  // Orders (issue 12).
  'orders.create': 'POST /api/orders',
  'orders.list': 'GET /api/orders',
  'orders.get': 'GET /api/orders/:id',
  'orders.deliver': 'POST /api/orders/:id/deliver',
  'orders.revision': 'POST /api/orders/:id/revision',
  'orders.accept': 'POST /api/orders/:id/accept',
  'orders.cancel': 'POST /api/orders/:id/cancel',
  'orders.proposeCancel': 'POST /api/orders/:id/cancel-proposal',
  'orders.answerCancel': 'POST /api/orders/:id/cancel-proposal/answer',

  // Payments, balances, withdrawals (issue 12).
  'payments.order': 'GET /api/payments/orders/:orderId',
  'payments.quote': 'POST /api/payments/quote',
  'payments.pay': 'POST /api/payments/pay',
  'payments.topUp': 'POST /api/payments/top-up',
  'payments.mine': 'GET /api/payments/my',
  'payments.webhook': 'POST /api/payments/webhooks/:provider',
  'payments.sandbox': 'GET /api/payments/sandbox/:paymentId',
  'payments.sandboxDecide': 'POST /api/payments/sandbox/:paymentId/:decision',
  'finance.balance': 'GET /api/finance/balance',
  'finance.entries': 'GET /api/finance/entries',
  'finance.selfEmployed': 'GET /api/finance/self-employed',
  'finance.declareSelfEmployed': 'PUT /api/finance/self-employed',
  'withdrawals.create': 'POST /api/withdrawals',
  'withdrawals.mine': 'GET /api/withdrawals/my',
  'withdrawals.details': 'POST /api/withdrawals/:id/details',

  // The profile dashboard and the referral page (issue 13).
  'dashboard.mine': 'GET /api/dashboard',
  'referrals.mine': 'GET /api/referrals/my',
  // Reviews (issue 13, ADR 029).
  'reviews.create': 'POST /api/orders/:id/reviews',
  'reviews.answer': 'POST /api/reviews/:id/answer',
  'reviews.mine': 'GET /api/reviews/my',
  'reviews.pending': 'GET /api/reviews/pending',
  'reviews.ofService': 'GET /api/services/:id/reviews',
  'reviews.ofUser': 'GET /api/users/:id/reviews',
  // Appeals to the administration (issue 14, ADR 035).
  'appeals.create': 'POST /api/appeals',
  'appeals.mine': 'GET /api/appeals/my',
  'appeals.target': 'GET /api/appeals/target',
  'appeals.get': 'GET /api/appeals/:id',

  'disputes.create': 'POST /api/disputes/',
  'disputes.mine': 'GET /api/disputes/my',
  'disputes.cancel': 'DELETE /api/disputes/:id',


  'admin.users.list': 'GET /api/admin/users',
  'admin.users.get': 'GET /api/admin/users/:id',
  'admin.users.block': 'PATCH /api/admin/users/:id/block',
  'admin.users.setAdmin': 'PATCH /api/admin/users/:id/admin',
  'admin.users.resetTwoFactor': 'DELETE /api/admin/users/:id/two-factor',
  'admin.settings.get': 'GET /api/admin/settings',
  'admin.settings.update': 'PUT /api/admin/settings',
  'admin.searchSuggestions.list': 'GET /api/admin/search-suggestions',
  'admin.searchSuggestions.hide': 'DELETE /api/admin/search-suggestions/:query',
  'admin.services.list': 'GET /api/admin/services',
  'admin.services.get': 'GET /api/admin/services/:id',
  'admin.services.moderate': 'PATCH /api/admin/services/:id',
  'admin.services.update': 'PUT /api/admin/services/:id',
  'admin.projects.list': 'GET /api/admin/projects',
  'admin.projects.get': 'GET /api/admin/projects/:id',
  'admin.projects.moderate': 'PATCH /api/admin/projects/:id',
  'admin.projects.update': 'PUT /api/admin/projects/:id',
  'admin.chats.messages': 'GET /api/admin/chats/:id/messages',

  // Admin: bids (issue 12).
  'admin.bids.list': 'GET /api/admin/bids',
  'admin.bids.remove': 'DELETE /api/admin/bids/:id',

  // Admin: orders (issue 12).
  'admin.orders.list': 'GET /api/admin/orders',
  'admin.orders.get': 'GET /api/admin/orders/:id',

  // Admin: payments and withdrawals (issue 12).
  'admin.payments.list': 'GET /api/admin/payments',
  'admin.payments.provider': 'GET /api/admin/payments/:id/provider',
  'admin.payments.differences': 'GET /api/admin/payment-differences',
  'admin.payments.resolveDifference': 'POST /api/admin/payment-differences/:id/resolve',
  'admin.payments.applyDifference': 'POST /api/admin/payment-differences/:id/apply',
  'admin.withdrawals.list': 'GET /api/admin/withdrawals',
  'admin.withdrawals.approve': 'POST /api/admin/withdrawals/:id/approve',
  'admin.withdrawals.reject': 'POST /api/admin/withdrawals/:id/reject',

  // Admin: reviews (issue 13).
  'admin.reviews.remove': 'DELETE /api/admin/reviews/:id',

  // The blog (issue 14, ADR 037).
  'blog.list': 'GET /api/blog',
  'blog.get': 'GET /api/blog/:id',
  'admin.blog.list': 'GET /api/admin/blog',
  'admin.blog.get': 'GET /api/admin/blog/:id',
  'admin.blog.create': 'POST /api/admin/blog',
  'admin.blog.update': 'PUT /api/admin/blog/:id',
  'admin.blog.setStatus': 'PATCH /api/admin/blog/:id/status',
  'admin.blog.remove': 'DELETE /api/admin/blog/:id',
  'admin.blog.preview': 'POST /api/admin/blog/preview',
  // Admin: appeals (issue 14).
  'admin.appeals.list': 'GET /api/admin/appeals',
  'admin.appeals.get': 'GET /api/admin/appeals/:id',
  'admin.appeals.take': 'POST /api/admin/appeals/:id/take',
  'admin.appeals.answer': 'POST /api/admin/appeals/:id/answer',
  // Admin: the overview, route rules and the audit log (issue 14, ADR 036).
  'admin.overview': 'GET /api/admin/overview',
  'admin.routeRules.list': 'GET /api/admin/route-rules',
  'admin.routeRules.create': 'POST /api/admin/route-rules',
  'admin.routeRules.update': 'PUT /api/admin/route-rules/:id',
  'admin.routeRules.remove': 'DELETE /api/admin/route-rules/:id',
  'admin.audit.list': 'GET /api/admin/audit',
  // Admin: disputes (issue 14).
  'admin.disputes.list': 'GET /api/admin/disputes',
  'admin.disputes.get': 'GET /api/admin/disputes/:id',
  'admin.disputes.take': 'POST /api/admin/disputes/:id/take',
  'admin.disputes.resolve': 'POST /api/admin/disputes/:id/resolve',
  // Personal data (issue 28, ADR 052): the texts, consents, the export and the deletion.
  'privacy.document': 'GET /api/privacy/documents/:kind',
  'privacy.status': 'GET /api/privacy/me',
  'privacy.accept': 'POST /api/privacy/consents',
  'privacy.export': 'GET /api/privacy/export',
  'privacy.requestDeletion': 'POST /api/privacy/deletion',
  'privacy.cancelDeletion': 'DELETE /api/privacy/deletion',
  'admin.privacy.documents': 'GET /api/admin/privacy/documents',
  'admin.privacy.publish': 'POST /api/admin/privacy/documents/:kind',
  'admin.privacy.consents': 'GET /api/admin/privacy/consents',
  'admin.privacy.deletions': 'GET /api/admin/privacy/deletions',

} as const;

export type RouteName = keyof typeof ROUTES;
type RouteOf<N extends RouteName> = (typeof ROUTES)[N];
export type MethodOf<N extends RouteName> = RouteOf<N> extends `${infer M} ${string}` ? M : never;
export type PathOf<N extends RouteName> = RouteOf<N> extends `${string} ${infer P}` ? P : never;
/** The endpoints a page may read (cached, retried once) and those that change something. */
export type ReadName = { [N in RouteName]: MethodOf<N> extends 'GET' ? N : never }[RouteName];
export type WriteName = Exclude<RouteName, ReadName>;

export function routeOf<N extends RouteName>(name: N): { method: MethodOf<N>; path: PathOf<N> } {
  const [method, path] = ROUTES[name].split(' ') as [MethodOf<N>, PathOf<N>];
  return { method, path };
}

/** The path with its `:params` filled in, each one URL-encoded. */
export function pathFor(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`missing path parameter ${key} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
