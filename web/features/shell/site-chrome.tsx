import { Header } from './header.tsx';
import { Footer } from './footer.tsx';

/** The default layout's frame: sticky header, page content, footer. */
export function SiteChrome({ children, aside }: { children: React.ReactNode; aside?: React.ReactNode }) {
  return (
    <div className="site">
      <a href="#main" className="skip-link">
        К содержанию
      </a>
      <Header />
      <div className={`container site__body${aside ? ' site__body--aside' : ''}`}>
        {aside}
        <main id="main" className="site__main">
          {children}
        </main>
      </div>
      <Footer />
    </div>
  );
}
