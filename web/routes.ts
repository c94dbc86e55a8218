import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

// SPEC §2 routes, each a page of its own (titles in web/features/shell/page-titles.ts), and the pages our own
// features add (the admin's settings, route rules, audit log and blog; the sandbox payment page; unsubscribe).

export default [
  layout('routes/route-rules.tsx', [
    layout('layouts/default-layout.tsx', [
      index('routes/services.tsx', { id: 'home' }),
      route('services', 'routes/services.tsx', { id: 'services-root' }),
      route('services/:slug', 'routes/services.tsx', { id: 'services' }),
      route('services/:slug/:serviceId', 'routes/service-detail.tsx', { id: 'service' }),
      route('projects', 'routes/projects.tsx', { id: 'projects-root' }),
      route('projects/:slug', 'routes/projects.tsx', { id: 'projects' }),
      route('projects/:slug/:projectId', 'routes/project-detail.tsx', { id: 'project' }),
      route('freelancers/:slug', 'routes/freelancers.tsx', { id: 'freelancers' }),
      route('user/:id', 'routes/user-profile.tsx', { id: 'user' }),
      // The blog (ADR 037).
      route('blog', 'routes/blog.tsx', { id: 'blog' }),
      route('blog/:id', 'routes/blog-post.tsx', { id: 'blog-post' }),
      ...(['faq', 'help', 'about', 'contacts', 'conditions'] as const).map((slug) =>
        route(slug, 'routes/static-page.tsx', { id: `static-${slug}` }),
      ),
      // Personal data under 152-ФЗ (ADR 052): the operator's current texts.
      route('privacy', 'routes/privacy-document.tsx', { id: 'privacy' }),
      route('consent', 'routes/privacy-document.tsx', { id: 'consent' }),
      route('become-seller', 'routes/become-seller.tsx'),
      route('recover', 'routes/recover.tsx'),
      route('confirm_account', 'routes/confirm-account.tsx'),
      // A letter's unsubscribe link (ADR 030).
      route('unsubscribe', 'routes/unsubscribe.tsx'),
      // The payment page (issue 12).
      route('payments/:orderId', 'routes/payment.tsx', { id: 'payment' }),
      // The sandbox provider's confirmation page (issue 12).
      route('sandbox-pay/:paymentId', 'routes/sandbox-pay.tsx', { id: 'sandbox-pay' }),

      route('test', 'routes/test.tsx'),
      layout('layouts/guest-only.tsx', [route('reg', 'routes/reg.tsx'), route('login', 'routes/login.tsx')]),
      layout('layouts/authenticated.tsx', { id: 'authenticated-verify' }, [route('verify', 'routes/verify.tsx')]),
      route('*', 'routes/not-found.tsx'),
    ]),
    route('profile', 'layouts/profile-layout.tsx', [
      index('routes/profile-index.tsx'),
      route('settings', 'routes/profile-settings.tsx', { id: 'profile-settings' }),
      route('saved', 'routes/profile-saved.tsx', { id: 'profile-saved' }),
      route('items', 'routes/profile-items.tsx', { id: 'profile-items' }),
      route('items/create', 'routes/profile-items-create.tsx', { id: 'profile-items-create' }),
      route('items/:id/edit', 'routes/profile-items-edit.tsx', { id: 'profile-items-edit' }),
      route('messages', 'routes/profile-messages.tsx', { id: 'profile-messages' }),
      // The money loop (issue 12): bids
      route('bids', 'routes/profile-bids.tsx', { id: 'profile-bids' }),
      // orders
      route('orders', 'routes/profile-orders.tsx', { id: 'profile-orders' }),
      // finance and payments
      route('finance', 'routes/profile-finance.tsx', { id: 'profile-finance' }),
      route('payments', 'routes/profile-payments.tsx', { id: 'profile-payments' }),
      // The dashboard, the referral page, reviews and notifications (issue 13).
      route('dashboard', 'routes/profile-dashboard.tsx', { id: 'profile-dashboard' }),
      route('referral', 'routes/profile-referral.tsx', { id: 'profile-referral' }),
      route('reviews', 'routes/profile-reviews.tsx', { id: 'profile-reviews' }),
      route('notifications', 'routes/profile-notifications.tsx', { id: 'profile-notifications' }),
      // Disputes and appeals (issue 14): two tabs of one page.
      route('disputes', 'routes/profile-disputes.tsx', { id: 'profile-disputes' }),
    ]),
    route('admin', 'layouts/admin-layout.tsx', [
      index('routes/admin-index.tsx', { id: 'admin-home' }),
      route('users', 'routes/admin-users.tsx', { id: 'admin-users' }),
      route('users/:id', 'routes/admin-user.tsx', { id: 'admin-users-item' }),
      route('services', 'routes/admin-services.tsx', { id: 'admin-services' }),
      route('services/:id/edit', 'routes/admin-service-edit.tsx', { id: 'admin-services-item-edit' }),
      route('search-suggestions', 'routes/admin-search-suggestions.tsx', { id: 'admin-search-suggestions' }),
      route('projects', 'routes/admin-projects.tsx', { id: 'admin-projects' }),
      route('projects/:id/edit', 'routes/admin-project-edit.tsx', { id: 'admin-projects-item-edit' }),
      // The money loop (issue 12): bids
      route('bids', 'routes/admin-bids.tsx', { id: 'admin-bids' }),
      // orders
      route('orders', 'routes/admin-orders.tsx', { id: 'admin-orders' }),
      // payments and withdrawals
      route('payments', 'routes/admin-payments.tsx', { id: 'admin-payments' }),
      // The blog (ADR 037).
      route('blog', 'routes/admin-blog.tsx', { id: 'admin-blog' }),
      route('blog/new', 'routes/admin-blog-edit.tsx', { id: 'admin-blog-new' }),
      route('blog/:id/edit', 'routes/admin-blog-edit.tsx', { id: 'admin-blog-item-edit' }),
      // Appeals (issue 14).
      route('appeals', 'routes/admin-appeals.tsx', { id: 'admin-appeals' }),
      // The admin area of issue 14 (ADR 036): settings, route rules, the audit log (the home is the index above).
      route('settings', 'routes/admin-settings.tsx', { id: 'admin-settings' }),
      route('route-rules', 'routes/admin-route-rules.tsx', { id: 'admin-route-rules' }),
      route('audit', 'routes/admin-audit.tsx', { id: 'admin-audit' }),
      // Personal data (ADR 052): versions of the texts, consents, deletion requests.
      route('privacy', 'routes/admin-privacy.tsx', { id: 'admin-privacy' }),
      // Disputes (issue 14, ADR 034).
      route('disputes', 'routes/admin-disputes.tsx', { id: 'admin-disputes' }),
    ]),
  ]),
] satisfies RouteConfig;
