import { use, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';

// A part of a page whose server HTML works without scripts (a GET form) and whose code a guest need not download
// before they use it (issue 11, docs/decisions/020). The server renders it inside a `<div class="deferred">` (no box
// of its own: `display: contents`). While the page hydrates, the browser renders that div with the server's HTML as
// its `dangerouslySetInnerHTML`: React keeps it as it is and never looks inside, so the rest of the page hydrates and
// this part stays plain HTML (its form submits natively). The first interaction near it (or new props) loads its
// code; then the part is rendered for real in place of the copy, and what the person had typed, chosen and focused
// meanwhile is carried over (as input events, so the component's state follows).
//
// (A Suspense boundary left unhydrated does not do here: every router update reaches it, and React then hydrates it
// at once or replaces it by its fallback.)

const TRIGGERS = ['pointerdown', 'focusin', 'keydown', 'touchstart'] as const;
const FIELDS = 'input, select, textarea';

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What the person did in the server's copy before the code came: changed fields and the focused one. */
interface Carried {
  values: { index: number; value: string; checked: boolean }[];
  focus: number;
  selection: [number | null, number | null] | null;
}

const changed = (field: Field) =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')
    ? field.checked !== field.defaultChecked
    : field instanceof HTMLSelectElement
      ? [...field.options].some((o) => o.selected !== o.defaultSelected)
      : field.value !== field.defaultValue;

function carry(root: Element): Carried {
  const fields = [...root.querySelectorAll<Field>(FIELDS)];
  const active = document.activeElement;
  const focus = fields.findIndex((f) => f === active);
  const focused = fields[focus];
  return {
    values: fields.flatMap((f, index) =>
      changed(f) ? [{ index, value: f.value, checked: f instanceof HTMLInputElement && f.checked }] : [],
    ),
    focus,
    selection: focused instanceof HTMLInputElement ? [focused.selectionStart, focused.selectionEnd] : null,
  };
}

function restore(root: Element, carried: Carried) {
  const fields = [...root.querySelectorAll<Field>(FIELDS)];
  for (const { index, value, checked } of carried.values) {
    const field = fields[index];
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
  const focused = fields[carried.focus];
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
 */
export function deferred<P extends object>(name: string, load: () => Promise<ComponentType<P>>, zone: string | null) {
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
    // What the server rendered from: other props later (functions aside) need the real part.
    const shown = snapshot(props);
    const first = useRef(shown);

    useEffect(() => {
      hydrated = true;
      if (live) return;
      let gone = false;
      const go = () => {
        start().then(
          () => {
            if (gone) return;
            if (wrapper.current) carried.current = carry(wrapper.current);
            setLive(true);
          },
          () => {},
        );
      };
      if (shown !== first.current) go();
      if (!zone) {
        return () => {
          gone = true;
        };
      }
      const onEvent = (event: Event) => {
        if (event.target instanceof Element && event.target.closest(zone)) go();
      };
      for (const type of TRIGGERS) window.addEventListener(type, onEvent, { capture: true, passive: true });
      return () => {
        gone = true;
        for (const type of TRIGGERS) window.removeEventListener(type, onEvent, { capture: true });
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
