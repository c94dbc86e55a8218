import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Form, NavLink, useLocation, useNavigate } from 'react-router';
import { ChevronDown, Folder, Search } from '../../components/ui/icons.tsx';
import { CURRENCIES, type Currency } from '#contract/constants';
import { AppLink } from '../../components/ui/app-link.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { api } from '../../lib/api.ts';
import { SUGGEST_DELAY_MS, suggestionOptions, type SuggestionOption } from './search-suggestions.ts';
import { currencyStore, useCurrency } from '../../lib/currency-store.ts';
import { ratesReady } from '../../lib/currency.ts';
import { Burger } from './burger.tsx';
import { signedIn } from './signed-in-lazy.ts';

// A signed-in person's parts of the header come in their own chunk (the chat store, avatars, role switch): a guest's
// pages do not load them (issue 11).
const SignedInBurger = lazy(() => signedIn().then((m) => ({ default: m.SignedInBurger })));
const SignedInControls = lazy(() => signedIn().then((m) => ({ default: m.SignedInControls })));

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

function SearchBox() {
  const { search } = useLocation();
  const q = new URLSearchParams(search).get('q') ?? '';
  const navigate = useNavigate();
  const { catalogue } = useShell();
  const [text, setText] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    setText(q);
  }
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [popular, setPopular] = useState<string[]>([]);
  const typed = text.trim();

  // Popular searches starting with the text, a moment after the typing stops; stale answers are dropped.
  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api
        .readInBackground('search.suggestions', { query: typed ? { q: typed } : {} }, abort.signal)
        .then((answer) => setPopular(answer.result))
        .catch(() => {}); // Suggestions are a convenience: without them the box still searches.
    }, SUGGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [typed, open]);

  const options = suggestionOptions(catalogue, typed, popular);
  const expanded = open && options.length > 0;
  const choose = (option: SuggestionOption) => {
    setOpen(false);
    setActive(-1);
    if (option.kind === 'query') setText(option.label);
    void navigate(option.to);
  };

  return (
    <div className="search-box">
      <Form method="get" action="/services/all" role="search" className="search" onSubmit={() => setOpen(false)}>
        <label htmlFor="site-search" className="visually-hidden">
          Поиск услуг
        </label>
        <input
          id="site-search"
          name="q"
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              // The first Escape closes the list (and keeps the text a search box would clear).
              if (expanded) e.preventDefault();
              setOpen(false);
            } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              if (!options.length) return;
              e.preventDefault();
              setOpen(true);
              // -1 is the text itself: the arrows go round the options through it.
              const last = options.length - 1;
              const down = e.key === 'ArrowDown';
              setActive((i) => (down ? (i >= last ? -1 : i + 1) : i <= -1 ? last : i - 1));
            } else if (e.key === 'Enter' && expanded && active >= 0 && options[active]) {
              e.preventDefault();
              choose(options[active]);
            }
          }}
          placeholder="Найти услугу"
          className="search__input"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls="site-search-suggestions"
          aria-activedescendant={expanded && active >= 0 && active < options.length ? `site-search-option-${active}` : undefined}
        />
        <button type="submit" className="search__button" aria-label="Найти">
          <Search size={18} aria-hidden />
        </button>
      </Form>
      <ul id="site-search-suggestions" role="listbox" aria-label="Подсказки поиска" className="search__suggestions" hidden={!expanded}>
        {expanded &&
          options.map((option, i) => (
            <li
              key={`${option.kind}:${option.to}`}
              id={`site-search-option-${i}`}
              role="option"
              aria-selected={i === active}
              className={`search__option${i === active ? ' search__option--active' : ''}`}
              // Before the input's blur closes the list.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(option)}
            >
              {option.kind === 'category' ? <Folder size={16} aria-hidden /> : <Search size={16} aria-hidden />}
              <span className="search__option-label">{option.label}</span>
              {option.hint && <span className="search__option-hint">{option.hint}</span>}
            </li>
          ))}
      </ul>
    </div>
  );
}

/** Without both rates (SPEC §4) prices stay in rubles: the switch is off and says why. */
function CurrencySelector() {
  const currency = useCurrency();
  const ready = ratesReady(useShell().rates);
  const hint = ready ? undefined : 'Курсы валют недоступны, цены показаны в рублях';
  return (
    <label className="currency" title={hint}>
      <span className="visually-hidden">Валюта</span>
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
  const { user } = useShell();
  const header = useRef<HTMLElement>(null);
  // Going somewhere (a link in the menu, a search) closes the phone menu and the catalogue panel: the header
  // stays mounted across pages, and an open menu would cover the page it led to.
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setOpen(false);
  }
  const toggle = () => setOpen((v) => !v);
  useEffect(() => {
    header.current?.querySelectorAll('details[open]').forEach((d) => d.removeAttribute('open'));
  }, [key]);
  return (
    <header className="header" ref={header}>
      <div className="header__inner container">
        <AppLink to="/" className="logo">
          <span className="logo__mark" aria-hidden>
            П
          </span>
          <span className="logo__text">{config.brand}</span>
        </AppLink>
        {user ? (
          <Suspense fallback={<Burger open={open} onToggle={toggle} />}>
            <SignedInBurger open={open} onToggle={toggle} />
          </Suspense>
        ) : (
          <Burger open={open} onToggle={toggle} />
        )}
        <div id="header-menu" className={`header__menu${open ? ' header__menu--open' : ''}`}>
          <CatalogueMenu />
          <nav className="header__nav" aria-label="Разделы">
            <NavLink to="/projects">Проекты</NavLink>
            <NavLink to="/freelancers/all">Фрилансеры</NavLink>
          </nav>
          <SearchBox />
          <CurrencySelector />
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
