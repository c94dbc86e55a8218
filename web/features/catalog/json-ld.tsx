import { useNonce } from '../../lib/nonce.ts';
import { jsonLdText } from './seo.ts';

/**
 * Structured data in the page body. It carries the CSP nonce like every inline script of ours (meta
 * descriptors of React Router cannot); in the browser the nonce is no longer readable, hence no warning.
 */
export function JsonLd({ data }: { data: unknown }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce || undefined}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: jsonLdText(data) }}
    />
  );
}
