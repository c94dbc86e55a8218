// The boot script of a guest's reading page (web/lib/boot-on-intent.ts), run in the browser. vite.boot.ts compiles
// and minifies this file into one inline script, the same text on every page, which reads its settings from its own
// `data-boot` attribute: it imports nothing (types aside).

export interface BootConfig {
  id: string;
  /** The preloads' tags taken out of the head. */
  links: string;
  /** The currency the server renders prices in, and where a guest's choice is kept: another one needs the app. */
  currency: string;
  currencyKey: string;
  /** A referral link's parameter: the app remembers it (SPEC §2). */
  referralParam: string;
  /** React takes the page's events from this event on; what was held before is made again after `hydrated`. */
  hydrating: string;
  hydrated: string;
  replayed: string;
}

/**
 * Starts the app on the first sign of intent, or at once when the page needs it. Until the app is hydrated it holds
 * what the server's HTML cannot do by itself and makes it again afterwards: a click on a button (a link is followed
 * as a link, a page load), a submit (a GET form with an address is sent as it is), another tab's storage change, and
 * a field changed meanwhile (the currency's list on every page).
 */
export function bootWhenAsked(config: BootConfig) {
  const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
  const triggers = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'input', 'change'];
  const held: (() => void)[] = [];
  const options = { capture: true, passive: true };
  let started = false;
  // React answers events from `hydrating` on: one held after it as well would happen twice.
  let live = false;

  const start = () => {
    if (started) return;
    started = true;
    for (const type of triggers) removeEventListener(type, start, options);
    document.head.insertAdjacentHTML('beforeend', config.links);
    const modules = document.getElementById(config.id);
    const script = document.createElement('script');
    script.type = 'module';
    script.nonce = nonce;
    script.textContent = modules?.textContent ?? '';
    document.body.append(script);
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (live || !target || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    // A link, a field, a label: the browser does what they do.
    if (target.closest('a[href], input, select, textarea, label')) return;
    const button = target.closest('button');
    if (button && button.type === 'submit' && button.form) return; // its submit is held below
    event.preventDefault();
    held.push(() => {
      if (!target.isConnected) return;
      const again = new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, view: window });
      Object.defineProperty(again, config.replayed, { value: true });
      target.dispatchEvent(again);
    });
    start();
  };

  const onSubmit = (event: SubmitEvent) => {
    const form = event.target;
    if (live || !(form instanceof HTMLFormElement) || event.defaultPrevented) return;
    if (form.method === 'get' && form.hasAttribute('action')) return;
    event.preventDefault();
    const submitter = event.submitter;
    held.push(() => {
      if (!form.isConnected) return;
      const by = submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement ? submitter : null;
      form.requestSubmit(by && by.isConnected && by.form === form ? by : undefined);
    });
    start();
  };

  const onStorage = (event: StorageEvent) => {
    if (live) return;
    const { key, oldValue, newValue, url, storageArea } = event;
    held.push(() => dispatchEvent(new StorageEvent('storage', { key, oldValue, newValue, url, storageArea })));
    start();
  };

  // A field the person changed before the app, with what they made it. Hydration keeps a text's or a box's state in
  // the page but takes React's for its own, and sets a list back to React's choice: each is made again after it as a
  // change React sees. (A part kept as server HTML carries its own fields over: web/lib/deferred.tsx.)
  const changed = new Map<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, string | boolean>();
  const onChange = (event: Event) => {
    const field = event.target;
    if (live || !(field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement)) return;
    if (field.closest('[data-deferred]')) return;
    const box = field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    changed.set(field, box ? (field as HTMLInputElement).checked : field.value);
  };
  const carryFields = () => {
    for (const [field, value] of changed) {
      if (!field.isConnected) continue;
      if (typeof value === 'boolean') {
        // React's own setter tells its tracker the other state; the click makes the person's, with its events.
        if (!value && (field as HTMLInputElement).type === 'radio') continue;
        (field as HTMLInputElement).checked = !value;
        field.click();
      } else if (field instanceof HTMLSelectElement) {
        // Even when the list still shows it: React sets it back to its own choice at its next render.
        field.value = value;
        field.dispatchEvent(new Event('change', { bubbles: true }));
      } else {
        const caret = document.activeElement === field ? ([field.selectionStart ?? null, field.selectionEnd ?? null] as const) : null;
        field.value = field.defaultValue;
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        try {
          if (caret) field.setSelectionRange(caret[0], caret[1]);
        } catch {
          // A type without a selection (email, number).
        }
      }
    }
  };

  addEventListener(config.hydrating, () => void (live = true));
  addEventListener(config.hydrated, () => {
    live = true;
    removeEventListener('click', onClick, true);
    removeEventListener('submit', onSubmit, true);
    removeEventListener('storage', onStorage);
    removeEventListener('input', onChange, true);
    removeEventListener('change', onChange, true);
    carryFields();
    // A part kept as server HTML that holds the focus learns of it, as if the focus came now (it loads its code).
    const focused = document.activeElement;
    if (focused && focused !== document.body && focused.closest('[data-deferred]')) {
      focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    }
    for (const again of held.splice(0)) again();
  });
  addEventListener('click', onClick, true);
  addEventListener('submit', onSubmit, true);
  addEventListener('storage', onStorage);
  addEventListener('input', onChange, true);
  addEventListener('change', onChange, true);

  let stored: string | null = null;
  try {
    stored = localStorage.getItem(config.currencyKey);
  } catch {
    // No storage: the server's currency.
  }
  // A referral link is remembered by the app (SPEC §2), and prices in another currency are the app's to show.
  if (new URLSearchParams(location.search).has(config.referralParam) || (stored && stored !== config.currency)) start();
  else for (const type of triggers) addEventListener(type, start, options);
}
