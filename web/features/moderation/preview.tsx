import type { Project, Service } from '#contract/catalog';
import { PACKAGE_TITLES } from '#contract/catalog-constants';
import { Gallery, daysText, revisionsText } from '../catalog/index.ts';
import { projectBudget, servicePrice } from '../items/index.ts';

// The item as the public sees it, read-only, on the admin's edit page (ADR 046): what a moderator decides about
// before touching the form. A service with an edit waiting shows the version buyers see now.

const paragraphs = (text: string) => text.split(/\n{2,}/).filter((p) => p.trim());

function Description({ text }: { text: string }) {
  return (
    <div className="prose moderation-preview__text">
      {paragraphs(text).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  );
}

export function ServicePreview({ service }: { service: Service }) {
  return (
    <section className="card moderation-preview" aria-labelledby="preview-title" data-testid="moderation-preview">
      <h2 id="preview-title" className="card__title">
        {service.pending_edit ? 'Сейчас на сайте' : 'Как видят на сайте'}
      </h2>
      <div className="moderation-preview__body">
        <div className="moderation-preview__gallery">
          <Gallery images={service.images} title={service.title} seed={service._id} />
        </div>
        <div>
          <p className="moderation-preview__title">{service.title}</p>
          <p className="moderation-preview__facts">
            {servicePrice(service)} · {daysText(service.days)} · {revisionsText(service.revisions)} ·{' '}
            {service.category_title}
          </p>
          <Description text={service.description} />
          {service.packages.length > 0 && (
            <ul className="moderation-preview__list">
              {service.packages.map((p) => (
                <li key={p.kind}>
                  «{PACKAGE_TITLES[p.kind]}» — {servicePrice({ price: p.price, packages: [] })}, {daysText(p.days)}:{' '}
                  {p.description}
                </li>
              ))}
            </ul>
          )}
          {service.tags.length > 0 && <p className="field__hint">Теги: {service.tags.join(', ')}</p>}
        </div>
      </div>
    </section>
  );
}

export function ProjectPreview({ project }: { project: Project }) {
  return (
    <section className="card moderation-preview" aria-labelledby="preview-title" data-testid="moderation-preview">
      <h2 id="preview-title" className="card__title">
        Как видят на сайте
      </h2>
      <p className="moderation-preview__title">{project.title}</p>
      <p className="moderation-preview__facts">
        {projectBudget(project.budget)}
        {project.days ? ` · ${daysText(project.days)}` : ''} · {project.category_title}
      </p>
      <Description text={project.description} />
      {(project.attachment_files ?? []).length > 0 && (
        <ul className="moderation-preview__list">
          {project.attachment_files!.map((f) => (
            <li key={f.url}>
              <a href={f.url} target="_blank" rel="noopener noreferrer">
                {f.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
