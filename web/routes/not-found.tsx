import type { Route } from './+types/not-found';
import { errorMeta } from '../lib/meta.ts';

// Every unknown path: HTTP 404 with SPEC's screen (rendered by the layout's error boundary).
export function loader(): never {
  throw new Response('Page not found', { status: 404, statusText: 'Page not found' });
}

export const meta: Route.MetaFunction = ({ matches, error }) => errorMeta(matches, error);

export default function NotFound() {
  return null;
}
