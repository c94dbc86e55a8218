import { Link } from 'react-router';
import type { StaticPage } from './content.ts';
import { resolvePage } from './resolve.ts';
import { Breadcrumbs } from '../../components/ui/breadcrumbs.tsx';

function PageLinkLine({ to, label }: { to: string; label: string }) {
  return (
    <p className="static-page__link">
      <Link to={to}>{label} →</Link>
    </p>
  );
}

export function StaticPageView({ page, brand }: { page: StaticPage; brand: string }) {
  const shown = resolvePage(page, brand);
  return (
    <article className="page static-page">
      <Breadcrumbs items={[{ label: 'Главная', to: '/' }, { label: shown.title }]} />
      <h1 className="page__title">{shown.title}</h1>
      <p className="static-page__lead">{shown.lead}</p>
      {shown.faq.length > 0 && (
        <div className="faq">
          {shown.faq.map((item) => (
            <details key={item.question} className="faq__item">
              <summary className="faq__question">{item.question}</summary>
              <p className="faq__answer">{item.answer}</p>
              {item.link && <PageLinkLine {...item.link} />}
            </details>
          ))}
        </div>
      )}
      {shown.sections.map((section) => (
        <section key={section.heading} className="static-page__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
          {section.items.length > 0 && (
            <ul>
              {section.items.map((item, i) => (
                <li key={i}>{item}</li>
              ))}
            </ul>
          )}
          {section.link && <PageLinkLine {...section.link} />}
        </section>
      ))}
    </article>
  );
}
