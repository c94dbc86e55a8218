import type { StaticPage } from './content.ts';
import { Breadcrumbs } from '../../components/ui/breadcrumbs.tsx';

export function StaticPageView({ page, brand }: { page: StaticPage; brand: string }) {
  const b = (text: string) => text.replaceAll('{brand}', brand);
  return (
    <article className="page static-page">
      <Breadcrumbs items={[{ label: 'Главная', to: '/' }, { label: page.title }]} />
      <h1 className="page__title">{page.title}</h1>
      <p className="static-page__lead">{b(page.lead)}</p>
      {page.faq && (
        <div className="faq">
          {page.faq.map((item) => (
            <details key={item.question} className="faq__item">
              <summary className="faq__question">{b(item.question)}</summary>
              <p className="faq__answer">{b(item.answer)}</p>
            </details>
          ))}
        </div>
      )}
      {page.sections.map((section) => (
        <section key={section.heading} className="static-page__section">
          <h2>{b(section.heading)}</h2>
          {section.paragraphs.map((p, i) => (
            <p key={i}>{b(p)}</p>
          ))}
          {section.items && (
            <ul>
              {section.items.map((item, i) => (
                <li key={i}>{b(item)}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </article>
  );
}
