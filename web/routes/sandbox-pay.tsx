import { data as answer } from 'react-router';
import type { Route } from './+types/sandbox-pay';
import { pageMeta } from '../lib/meta.ts';
import { pageNotFound } from '../lib/guards.ts';
import { SandboxPage } from '../features/payments/index.ts';
import '../styles/payments.css';

// /sandbox-pay/{paymentId}: the built-in sandbox provider's confirmation page (ADR 026).

export async function loader({ params, context }: Route.LoaderArgs) {
  const res = await context.read('payments.sandbox', { params: { paymentId: params.paymentId } });
  if (res.status >= 500) throw answer('Server error', { status: 500 });
  if (!res.ok) throw pageNotFound();
  return { payment: res.body.result };
}

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, 'Тестовая оплата'), { name: 'robots', content: 'noindex' }];

export default function SandboxPayRoute({ loaderData }: Route.ComponentProps) {
  return <SandboxPage payment={loaderData.payment} />;
}
