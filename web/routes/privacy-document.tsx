import { data as answer } from 'react-router';
import type { Route } from './+types/privacy-document';
import { errorMeta, pageMeta } from '../lib/meta.ts';
import { PrivacyDocumentView } from '../features/privacy/index.ts';

// /privacy and /consent (ADR 052): the version of the operator's text in force, as the admin last published it.

export async function loader({ context, url }: Route.LoaderArgs) {
  const kind = url.pathname.startsWith('/privacy') ? 'policy' : 'consent';
  const res = await context.read('privacy.document', { params: { kind } });
  if (!res.ok) throw answer('Server error', { status: res.status });
  return { document: res.body.result };
}

export const meta: Route.MetaFunction = ({ data, matches, error }) =>
  error || !data ? errorMeta(matches, error) : pageMeta(matches, data.document.title, `${data.document.title}: какие данные мы собираем, зачем, сколько храним и кому передаём`);

export default function PrivacyDocumentPage({ loaderData }: Route.ComponentProps) {
  return <PrivacyDocumentView document={loaderData.document} />;
}
