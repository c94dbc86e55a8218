import type { PrivacyDocument } from '#contract/privacy';
import { Breadcrumbs } from '../../components/ui/breadcrumbs.tsx';
import { AppLink } from '../../components/ui/app-link.tsx';
import { formatDate } from '../../lib/dates.ts';
import { documentBlocks } from './document-text.ts';

/** The blocks of an operator's text, rendered as text (never as HTML). */
export function DocumentText({ body }: { body: string }) {
  return (
    <>
      {documentBlocks(body).map((block, i) =>
        block.kind === 'heading' ? (
          <h2 key={i}>{block.text}</h2>
        ) : block.kind === 'list' ? (
          <ul key={i}>
            {block.items.map((item, j) => (
              <li key={j}>{item}</li>
            ))}
          </ul>
        ) : (
          <p key={i}>{block.text}</p>
        ),
      )}
    </>
  );
}

/** /privacy and /consent: the version in force, its number and date, and the link to the other text. */
export function PrivacyDocumentView({ document }: { document: PrivacyDocument }) {
  const other = document.kind === 'policy' ? { to: '/consent', label: 'Согласие на обработку персональных данных' } : { to: '/privacy', label: 'Политика обработки персональных данных' };
  return (
    <article className="page static-page">
      <Breadcrumbs items={[{ label: 'Главная', to: '/' }, { label: document.title }]} />
      <h1 className="page__title">{document.title}</h1>
      <p className="static-page__lead">
        Редакция № {document.version} от {formatDate(document.created_at)}
      </p>
      <section className="static-page__section">
        <DocumentText body={document.body} />
      </section>
      <p className="static-page__link">
        <AppLink to={other.to}>{other.label} →</AppLink>
      </p>
    </article>
  );
}
