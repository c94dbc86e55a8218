import { useSyncExternalStore } from 'react';
import type { PasskeyOptions, PasskeyResponse } from '#contract/passkeys';
import { api } from '../../lib/api.ts';

// The browser's side of passkeys (ADR 057). @simplewebauthn/browser is imported only when a ceremony starts, so it
// is a chunk of its own that no page loads up front (the guests' JS budget, e2e/js-budget.ts).

/** Whether this browser can use passkeys at all (WebAuthn). */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

const never = () => () => {};
/** passkeysSupported() for a render: false on the server and at hydration, the browser's answer after. */
export const usePasskeysSupported = () => useSyncExternalStore(never, passkeysSupported, () => false);

/** Russian words for the browser's refusals; the library's own message otherwise. */
function failureText(err: unknown): string {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'Действие с ключом доступа отменено или время истекло';
  if (name === 'InvalidStateError') return 'Этот ключ доступа уже добавлен';
  if (name === 'SecurityError') return 'Ключи доступа не работают на этом адресе сайта';
  return 'Браузер не смог использовать ключ доступа';
}

export type Ceremony = { response: PasskeyResponse; error?: undefined } | { response?: undefined; error: string };

/** navigator.credentials.create() for the server's options. */
export async function createPasskey(options: PasskeyOptions): Promise<Ceremony> {
  try {
    const { startRegistration } = await import('@simplewebauthn/browser');
    return { response: (await startRegistration({ optionsJSON: options as never })) as unknown as PasskeyResponse };
  } catch (err) {
    return { error: failureText(err) };
  }
}

/** navigator.credentials.get() for the server's options. */
export async function getPasskey(options: PasskeyOptions): Promise<Ceremony> {
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    return { response: (await startAuthentication({ optionsJSON: options as never })) as unknown as PasskeyResponse };
  } catch (err) {
    return { error: failureText(err) };
  }
}

export type Outcome<T> = { result: T; error?: undefined } | { result?: undefined; error: string };

/** A sign-in with a passkey: password-less, or (with the login's challenge) as its second step. Answers the token. */
export async function signInWithPasskey(challenge?: string): Promise<Outcome<string>> {
  const body = challenge ? { challenge } : {};
  const options = await api.write('auth.passkeyLoginOptions', { body });
  if (options.error) return { error: options.error.message };
  const ceremony = await getPasskey(options.data.result);
  if (ceremony.error !== undefined) return { error: ceremony.error };
  const answer = await api.write('auth.passkeyLogin', { body: { ...body, response: ceremony.response } });
  return answer.error ? { error: answer.error.message } : { result: answer.data.result };
}

/** A step-up with one of the person's passkeys (the server sets the step_up cookie). */
export async function stepUpWithPasskey(): Promise<Outcome<true>> {
  const options = await api.write('auth.stepUpPasskeyOptions');
  if (options.error) return { error: options.error.message };
  const ceremony = await getPasskey(options.data.result);
  if (ceremony.error !== undefined) return { error: ceremony.error };
  const answer = await api.write('auth.stepUpPasskey', { body: { response: ceremony.response } });
  return answer.error ? { error: answer.error.message } : { result: true };
}
