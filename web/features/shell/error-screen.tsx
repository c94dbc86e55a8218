import { useRouteLoaderData } from 'react-router';
import { MESSAGES } from '#contract/messages';
import { AppLink } from '../../components/ui/app-link.tsx';
import { Breadcrumbs } from '../../components/ui/breadcrumbs.tsx';
import { SiteChrome } from './site-chrome.tsx';

/** SPEC §2's 404 screen, word for word; other errors get a plain apology in the same frame. */
function Body({ notFound }: { notFound: boolean }) {
  if (!notFound) {
    return (
      <section className="error-screen">
        <h1 className="error-screen__title">{MESSAGES.unexpected}</h1>
        <p className="error-screen__text">Попробуйте обновить страницу через минуту.</p>
        <AppLink to="/" className="btn btn--primary">
          {MESSAGES.notFoundBack}
        </AppLink>
      </section>
    );
  }
  return (
    <section className="error-screen">
      <Breadcrumbs items={[{ label: MESSAGES.home, to: '/' }, { label: MESSAGES.notFoundBreadcrumb }]} />
      <p className="error-screen__code" aria-hidden>
        404
      </p>
      <h1 className="error-screen__title">{MESSAGES.notFoundTitle}</h1>
      <p className="error-screen__text">{MESSAGES.notFoundText}</p>
      <AppLink to="/" className="btn btn--primary">
        {MESSAGES.notFoundBack}
      </AppLink>
    </section>
  );
}

export function ErrorScreen({ notFound }: { notFound: boolean }) {
  const hasShell = useRouteLoaderData('root') !== undefined;
  const content = <Body notFound={notFound} />;
  return hasShell ? <SiteChrome>{content}</SiteChrome> : <main className="container">{content}</main>;
}
