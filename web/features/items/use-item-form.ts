import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ApiError } from '#contract/api';
import type { FieldErrors } from './values.ts';

/**
 * State of a service or project form: the typed values, the contract's checks run on every change, and which errors
 * to show — a field's own once it has been left (blur), all of them after a submit attempt, and the server's
 * answer until the field is edited again.
 */
export function useItemForm<V extends object>(initial: V | (() => V), validate: (values: V) => FieldErrors) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<{ errors: FieldErrors; problem: ApiError | null }>({
    errors: {},
    problem: null,
  });
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  const clientErrors = useMemo(() => validate(values), [validate, values]);

  const errors = useMemo(() => {
    const shown: FieldErrors = {};
    for (const [key, messages] of Object.entries(clientErrors))
      if (submitted || touched.has(key)) shown[key] = messages;
    for (const [key, messages] of Object.entries(server.errors)) shown[key] ??= messages;
    return shown;
  }, [clientErrors, server.errors, submitted, touched]);

  /** Changes one value; `paths` are the error keys it affects (the server's errors for them are dropped). */
  const set = useCallback(<K extends keyof V>(key: K, value: V[K] | ((previous: V[K]) => V[K]), ...paths: string[]) => {
    setValues((v) => ({ ...v, [key]: typeof value === 'function' ? (value as (p: V[K]) => V[K])(v[key]) : value }));
    const affected = paths.length ? paths : [String(key)];
    setServer((s) => {
      const kept = Object.entries(s.errors).filter(([k]) => !affected.some((p) => k === p || k.startsWith(`${p}.`)));
      return kept.length === Object.keys(s.errors).length ? s : { ...s, errors: Object.fromEntries(kept) };
    });
  }, []);

  const touch = useCallback((path: string) => setTouched((t) => (t.has(path) ? t : new Set(t).add(path))), []);

  // After a refused submit, take the person to the first field that needs them.
  useEffect(() => {
    if (!attempt) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
    invalid?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [attempt]);

  /**
   * Submits when the client-side checks pass: `send` makes the request; its error's field messages go next to the
   * fields and its message above the buttons. Resolves with whether it was saved.
   */
  async function submit<T>(send: () => Promise<{ data?: T; error?: ApiError }>): Promise<T | undefined> {
    setSubmitted(true);
    if (Object.keys(clientErrors).length) {
      setAttempt((n) => n + 1);
      return undefined;
    }
    setBusy(true);
    const { data, error } = await send();
    setBusy(false);
    if (error) {
      setServer({ errors: error.errors ?? {}, problem: error });
      if (error.errors && Object.keys(error.errors).length) setAttempt((n) => n + 1);
      return undefined;
    }
    setServer({ errors: {}, problem: null });
    return data;
  }

  return { values, set, touch, errors, submit, busy, problem: server.problem, formRef, setBusy };
}

export type ItemForm<V extends object> = ReturnType<typeof useItemForm<V>>;
