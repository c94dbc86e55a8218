import { use, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { REPLAYED } from './boot-names.ts';

// A part of a page whose server HTML works without scripts (a GET form) and whose code a guest need not download
// before they use it (issue 11, docs/decisions/020). The server renders it inside a `<div class="deferred">` (no box
// of its own: `display: contents`). While the page hydrates, the browser renders that div with the server's HTML as
// its `dangerouslySetInnerHTML`: React keeps it as it is and never looks inside, so the rest of the page hydrates and
// this part stays plain HTML (its form submits natively). The first interaction near it (or new props) loads its
// code; then the part is rendered for real in place of the copy, and what the person had typed, chosen and focused
// meanwhile is carried over (as input events, so the component's state follows). A click on a link or a button of
// the copy before the code came waits for it and is then made again on the same element of the real part (so a
// link navigates in the page, with its own options, and a button does what it does).
//
// (A Suspense boundary left unhydrated does not do here: every router update reaches it, and React then hydrates it
// at once or replaces it by its fallback.)

// A field changed without a pointer or a key (autofill, assistive technology) counts too: 'input' and 'change'.
const TRIGGERS = ['pointerdown', 'pointerover', 'focusin', 'keydown', 'touchstart', 'input', 'change'] as const;
const RELEASES = ['pointerup', 'pointercancel'] as const;
const FIELDS = 'input, select, textarea';
/** What can hold the focus or take a click: the same index finds the same element in the real part. */
const TARGETS = 'a[href], button, input, select, textarea';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/**
 * An element of the copy, found again in the real part. Not by its place alone: the real part may differ from the
 * server's HTML around it (a lazy part shows its fallback until its own code comes), so an element is named by what
 * it is (tag, address, name, type, id, label) and which of the elements so named it is.
 */
interface Mark {
  name: string;
  nth: number;
}

const nameOf = (el: Element, strict: boolean) =>
  [
    el.tagName,
    el.getAttribute('href'),
    el.getAttribute('name'),
    el.getAttribute('type'),
    el.id,
    strict ? el.getAttribute('aria-label') : el.getAttribute('class'),
    strict ? el.textContent?.trim() : '',
  ].join('\u0001');

function markOf(list: readonly Element[], el: Element | null): Mark | null {
  const index = el ? list.indexOf(el) : -1;
  if (index < 0) return null;
  const name = nameOf(el!, true);
  return { name, nth: list.slice(0, index).filter((x) => nameOf(x, true) === name).length };
}

/** The element of `list` with the mark's name and place among its namesakes; a looser name (its class instead of
 * its words, which may follow a state the copy did not have yet) if none has it. */
function find<T extends Element>(list: readonly T[], mark: Mark | null, copy: readonly Element[]): T | undefined {
  if (!mark) return undefined;
  const strict = list.filter((x) => nameOf(x, true) === mark.name)[mark.nth];
  if (strict) return strict;
  const original = copy.filter((x) => nameOf(x, true) === mark.name)[mark.nth];
  if (!original) return undefined;
  const loose = nameOf(original, false);
  const nth = copy.slice(0, copy.indexOf(original)).filter((x) => nameOf(x, false) === loose).length;
  return list.filter((x) => nameOf(x, false) === loose)[nth];
}

/** What the person did in the server's copy before the code came: changed fields and the focused one. */
interface Carried {
  /** The copy's targets and fields as they were, to find the looser names in. */
  targets: Element[];
  fields: Element[];
  values: { mark: Mark | null; value: string; checked: boolean }[];
  /** Among TARGETS. */
  focus: Mark | null;
  /** A link or a button clicked in the copy (among TARGETS). */
  click: Mark | null;
  /** The address of a clicked link, followed the plain way if the real part has no such link. */
  href: string | null;
  selection: [number | null, number | null] | null;
}

const changed = (field: Field) =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')
    ? field.checked !== field.defaultChecked
    : field instanceof HTMLSelectElement
      ? [...field.options].some((o) => o.selected !== o.defaultSelected)
      : field.value !== field.defaultValue;

const targets = (root: Element) => [...root.querySelectorAll<HTMLElement>(TARGETS)];

function carry(root: Element, clicked: Element | null): Carried {
  const fields = [...root.querySelectorAll<Field>(FIELDS)];
  const all = targets(root);
  const focused = document.activeElement;
  return {
    targets: all,
    fields,
    values: fields.flatMap((f) =>
      changed(f) ? [{ mark: markOf(fields, f), value: f.value, checked: f instanceof HTMLInputElement && f.checked }] : [],
    ),
    focus: markOf(all, focused),
    click: markOf(all, clicked),
    href: clicked instanceof HTMLAnchorElement ? clicked.href : null,
    selection: focused instanceof HTMLInputElement ? [focused.selectionStart, focused.selectionEnd] : null,
  };
}

function restore(root: Element, carried: Carried) {
  const fields = [...root.querySelectorAll<Field>(FIELDS)];
  const all = targets(root);
  for (const { mark, value, checked } of carried.values) {
    const field = find(fields, mark, carried.fields);
    if (!field) continue;
    // The native setter, so that React sees a change and calls the component's onChange.
    const proto = Object.getPrototypeOf(field) as object;
    const toggles = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    if (toggles) field.click();
    else {
      Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
      field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    }
    if (toggles && field.checked !== checked) field.click();
  }
  const focused = find(all, carried.focus, carried.targets);
  if (focused) {
    focused.focus();
    if (carried.selection && focused instanceof HTMLInputElement) {
      try {
        focused.setSelectionRange(carried.selection[0], carried.selection[1]);
      } catch {
        // Some input types have no selection.
      }
    }
  }
  const clicked = find(all, carried.click, carried.targets);
  // After this commit, so that a link's navigation starts from a settled page.
  if (clicked) queueMicrotask(() => clicked.click());
  else if (carried.href) window.location.assign(carried.href);
}

/** A click the copy cannot answer by itself: a link (a full page load otherwise) or a button that is not a submit. */
function waits(event: MouseEvent, root: Element): Element | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return null;
  }
  const target = event.target instanceof Element ? event.target.closest('a[href], button') : null;
  if (!target || !root.contains(target)) return null;
  if (target instanceof HTMLAnchorElement) return target.target || target.hasAttribute('download') ? null : target;
  return (target as HTMLButtonElement).type === 'button' ? target : null;
}

/** The props as they shape the HTML: functions left out. */
const snapshot = (props: object) => JSON.stringify(props, (_key, value: unknown) => (typeof value === 'function' ? undefined : value));

/** Set after the first commit in the browser: a part mounted later is not hydrating. */
let hydrated = false;
const onServer: Promise<unknown>[] = [];

/**
 * Settles when the server has imported every deferred part defined so far: web/entry.server.tsx awaits it before
 * rendering, so a part never suspends there (a streamed boundary would need an inline script, ADR 021).
 */
export const deferredReady = () => Promise.all(onServer);

/**
 * @param name the part's name, its wrapper's `data-deferred`.
 * @param load imports the component (a dynamic import: a chunk of its own).
 * @param zone a CSS selector of the element an interaction with which loads the code (the part itself or its page);
 *   null for a part that has nothing to do in the browser (links and a GET form): its code loads only when it is
 *   mounted after hydration or given other props.
 * @param now says, after hydration, whether to load the code at once (for instance for a signed-in person, whose
 *   page has live parts inside).
 */
export function deferred<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
  zone: string | null,
  now?: () => boolean,
) {
  let loaded: ComponentType<P> | undefined;
  let ready: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (ready ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        ready = undefined; // A failed fetch is tried again on the next interaction.
        throw error;
      },
    ));
  if (typeof document === 'undefined') onServer.push(start());

  function Mounted({ props }: { props: P }) {
    const Component = loaded ?? use(start());
    return <Component {...props} />;
  }

  function Deferred(props: P) {
    const wrapper = useRef<HTMLDivElement>(null);
    // The server's HTML while hydrating; null on the server and for a part mounted after hydration.
    const [kept] = useState(() =>
      typeof document === 'undefined' || hydrated ? null : (document.querySelector(`[data-deferred="${name}"]`)?.innerHTML ?? null),
    );
    const [live, setLive] = useState(kept === null);
    const carried = useRef<Carried | null>(null);
    const clicked = useRef<Element | null>(null);
    // Asked for (an interaction, a held click): a render before the code came must not drop the request.
    const wanted = useRef(false);
    // A pointer pressed in the copy and not yet released: the copy stays until then. Replaced between the press and
    // the release, the click would go to neither (to their common ancestor), and a link pressed would do nothing.
    const pressed = useRef(false);
    // The go() of the newest effect, which a release calls.
    const latest = useRef<(() => void) | null>(null);
    // What the server rendered from: other props later (functions aside) need the real part. Compared only in the
    // browser: the server skips turning a page's data into JSON for nothing.
    const shown = import.meta.env.SSR ? '' : snapshot(props);
    const first = useRef(shown);

    useEffect(() => {
      hydrated = true;
      if (live) return;
      let gone = false;
      const go = () => {
        wanted.current = true;
        start().then(
          () => {
            if (gone || pressed.current) return;
            if (wrapper.current) carried.current = carry(wrapper.current, clicked.current);
            setLive(true);
          },
          () => {
            // No code: a link clicked meanwhile is followed the plain way.
            if (clicked.current instanceof HTMLAnchorElement) window.location.assign(clicked.current.href);
            clicked.current = null;
            wanted.current = false;
          },
        );
      };
      latest.current = go;
      if (wanted.current || shown !== first.current || now?.()) go();
      if (!zone) {
        return () => {
          gone = true;
        };
      }
      const onEvent = (event: Event) => {
        if (event.type === 'pointerdown') pressed.current = event.target instanceof Node && !!wrapper.current?.contains(event.target);
        if (event.target instanceof Element && event.target.closest(zone)) go();
      };
      const onRelease = () => {
        if (!pressed.current) return;
        pressed.current = false;
        // After the click the release brings in the same task (held by onClick), or after none.
        setTimeout(() => wanted.current && latest.current?.(), 0);
      };
      const onClick = (event: MouseEvent) => {
        // Only a person's click is held: the replay of a held click (restore(), run before this listener is
        // removed) must reach the real part, or a plain link would never be followed.
        // A guest's click held until the app was there (web/lib/boot-on-intent.ts) counts as theirs.
        if (!event.isTrusted && !(REPLAYED in event)) return;
        const target = wrapper.current && waits(event, wrapper.current);
        if (!target) return;
        event.preventDefault();
        clicked.current = target;
        // The code may have come between the press and this click (loaded on pointerdown): the real part is
        // about to replace the copy with what was carried before the click, so the click joins it there.
        if (carried.current && wrapper.current) {
          carried.current.click = markOf(targets(wrapper.current), target);
          carried.current.href = target instanceof HTMLAnchorElement ? target.href : null;
        }
        go();
      };
      for (const type of TRIGGERS) window.addEventListener(type, onEvent, { capture: true, passive: true });
      window.addEventListener('click', onClick);
      for (const type of RELEASES) window.addEventListener(type, onRelease, { capture: true, passive: true });
      return () => {
        gone = true;
        for (const type of TRIGGERS) window.removeEventListener(type, onEvent, { capture: true });
        window.removeEventListener('click', onClick);
        for (const type of RELEASES) window.removeEventListener(type, onRelease, { capture: true });
      };
    });

    useLayoutEffect(() => {
      if (!live || !carried.current || !wrapper.current) return;
      restore(wrapper.current, carried.current);
      carried.current = null;
    }, [live]);

    if (!live && kept !== null) {
      // Kept as the server sent it; new props (an update before the code came) load the code (see the effect).
      return <div ref={wrapper} key="kept" className="deferred" data-deferred={name} dangerouslySetInnerHTML={{ __html: kept }} suppressHydrationWarning />;
    }
    return (
      <div ref={wrapper} key="live" className="deferred" data-deferred={name}>
        <Mounted props={props} />
      </div>
    );
  }

  Deferred.load = start;
  return Deferred;
}
