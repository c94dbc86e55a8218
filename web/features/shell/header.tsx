import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { ChevronDown, Icon } from '../../components/ui/icons.tsx';
import { CURRENCIES, type Currency } from '#contract/constants';
import { AppLink, NavLink } from '../../components/ui/app-link.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { deferred } from '../../lib/deferred.tsx';
import { currencyStore, useCurrency } from '../../lib/currency-store.ts';
import { ratesReady } from '../../lib/currency.ts';
import { Burger } from './burger.tsx';
import { signedIn } from './signed-in-lazy.ts';
import { POST_PROJECT_PATH } from '../../lib/post-project.ts';

// A signed-in person's parts of the header come in their own chunk (the chat store, avatars, role switch): a guest's
// pages do not load them (issue 11).
const SignedInBurger = lazy(() => signedIn().then((m) => ({ default: m.SignedInBurger })));
const SignedInControls = lazy(() => signedIn().then((m) => ({ default: m.SignedInControls })));

// The search box's suggestions (a combobox) come with the first focus or touch of the field (issue 11): until then
// the server's HTML stays, a GET form to /services/all that works without scripts.
const SearchBox = deferred<object>(
  'search',
  () => import('./search-box.tsx').then((m) => m.SearchBox),
  '.search-box',
);

function CatalogueMenu() {
  const { catalogue } = useShell();
  // The panel's hundred links are rendered once it is opened: every page renders faster, and crawlers
  // find the same categories in the listings.
  const [opened, setOpened] = useState(false);
  return (
    <details className="catalogue" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary className="catalogue__toggle">
        Каталог <ChevronDown size={16} aria-hidden />
      </summary>
      {opened && (
        <div className="catalogue__panel">
          {catalogue.map((c) => (
            <div key={c.slug} className="catalogue__group">
              <AppLink to={`/services/${c.slug}`} className="catalogue__category">
                {c.title}
              </AppLink>
              <ul className="catalogue__subs">
                {c.subs.slice(0, 6).map((s) => (
                  <li key={s.slug}>
                    <AppLink to={`/services/${c.slug}?sub=${s.slug}`}>{s.title}</AppLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </details>
  );
}

/** Without both rates (SPEC §4) prices stay in rubles: the switch is off and says why. */
function CurrencySelector() {
  const currency = useCurrency();
  const ready = ratesReady(useShell().rates);
  const hint = ready ? undefined : 'Курсы валют недоступны, цены показаны в рублях';
  return (
    <label className="currency" title={hint}>
      <span className="header__label">Валюта</span>
      <select
        value={ready ? currency : 'RUB'}
        onChange={(e) => currencyStore.set(e.target.value as Currency)}
        className="currency__select"
        name="currency"
        aria-label={ready ? 'Валюта' : `Валюта: ${hint}`}
        disabled={!ready}
      >
        {CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A guest's way in; the signed-in menu, role toggle and messages link are loaded only for a signed-in person. */
function AuthLinks() {
  return (
    <div className="auth-links">
      <AppLink to="/login" className="btn btn--ghost">
        Войти
      </AppLink>
      <AppLink to="/reg" className="btn btn--primary">
        Регистрация
      </AppLink>
    </div>
  );
}

export function Header() {
  const { config } = useShell();
  const { key } = useLocation();
  const [open, setOpen] = useState(false);
  // The phone's search button opens the menu with the search field alone (issue 25: it was inside the menu only).
  const [searching, setSearching] = useState(false);
  const { user } = useShell();
  const header = useRef<HTMLElement>(null);
  // Going somewhere (a link in the menu, a search) closes the phone menu and the catalogue panel: the header
  // stays mounted across pages, and an open menu would cover the page it led to.
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setOpen(false);
    setSearching(false);
  }
  const toggle = () => {
    setSearching(false);
    setOpen((v) => !v);
  };
  const toggleSearch = () => {
    setOpen(false);
    setSearching((v) => !v);
  };
  useEffect(() => {
    header.current?.querySelectorAll('details[open]').forEach((d) => d.removeAttribute('open'));
  }, [key]);
  useEffect(() => {
    if (searching) header.current?.querySelector<HTMLInputElement>('#site-search')?.focus();
  }, [searching]);
  return (
    <header className="header" ref={header}>
      <div className="header__inner container">
        <AppLink to="/" className="logo">
          <span className="logo__mark" aria-hidden>
            П
          </span>
          <span className="logo__text">{config.brand}</span>
        </AppLink>
        <button
          type="button"
          className="header__search-toggle"
          aria-expanded={searching}
          aria-controls="header-menu"
          aria-label={searching ? 'Закрыть поиск' : 'Поиск'}
          onClick={toggleSearch}
        >
          <Icon name={searching ? 'x' : 'search'} size={22} aria-hidden />
        </button>
        {user ? (
          <Suspense fallback={<Burger open={open} onToggle={toggle} />}>
            <SignedInBurger open={open} onToggle={toggle} />
          </Suspense>
        ) : (
          <Burger open={open} onToggle={toggle} />
        )}
        <div id="header-menu" className={`header__menu${open || searching ? ' header__menu--open' : ''}${searching ? ' header__menu--search' : ''}`}>
          <CatalogueMenu />
          <nav className="header__nav" aria-label="Разделы">
            <NavLink to="/projects">Проекты</NavLink>
            <NavLink to="/freelancers/all">Фрилансеры</NavLink>
          </nav>
          <SearchBox />
          <CurrencySelector />
          {/* A buyer's first step (issue 25); a seller at work posts services (their own menu and pages say where). */}
          {user?.active_role !== 'seller' && (
            <AppLink to={POST_PROJECT_PATH} className="btn header__post">
              Разместить проект
            </AppLink>
          )}
          {user ? (
            <Suspense fallback={null}>
              <SignedInControls />
            </Suspense>
          ) : (
            <AuthLinks />
          )}
        </div>
      </div>
    </header>
  );
}
