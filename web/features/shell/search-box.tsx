import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { GetForm } from '../../components/ui/get-form.tsx';
import { Folder, Search } from '../../components/ui/icons.tsx';
import { useShell } from '../../lib/use-shell.ts';
import { api } from '../../lib/api.ts';
import { SUGGEST_DELAY_MS, suggestionOptions, type SuggestionOption } from './search-suggestions.ts';

/** The header's search field with its suggestions (a combobox); loaded on first use (header.tsx). */
export function SearchBox() {
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

  // Folded from the catalogue only while the list is open: a page rendered on the server never shows it.
  const optionsNow = () => suggestionOptions(catalogue, typed, popular);
  const options = open ? optionsNow() : [];
  const expanded = open && options.length > 0;
  const choose = (option: SuggestionOption) => {
    setOpen(false);
    setActive(-1);
    if (option.kind === 'query') setText(option.label);
    void navigate(option.to);
  };

  return (
    <div className="search-box">
      <GetForm action="/services/all" role="search" className="search" onSubmit={() => setOpen(false)}>
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
              const shown = open ? options : optionsNow();
              if (!shown.length) return;
              e.preventDefault();
              setOpen(true);
              // -1 is the text itself: the arrows go round the options through it.
              const last = shown.length - 1;
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
      </GetForm>
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
