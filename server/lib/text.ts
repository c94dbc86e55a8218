// Text as it enters the API: every string of a request made storable and comparable before any schema sees it.

// C0 controls except tab, line feed and carriage return: PostgreSQL refuses NUL, and the rest only hide text.
// One character class, so linear.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * Well-formed (a lone UTF-16 surrogate becomes U+FFFD: jsonb refuses it), without C0 controls other than
 * \t \n \r, composed to NFC (the same word typed on two keyboards compares equal).
 */
export function normaliseText(text: string): string {
  // String.prototype.toWellFormed is Node 20's (ES2024); the project's TypeScript lib stops at ES2023.
  const wellFormed = (text as string & { toWellFormed(): string }).toWellFormed();
  return wellFormed.replace(CONTROLS, '').normalize('NFC');
}

type Container = Record<string, unknown> | unknown[];
/** Arrays and plain objects (the query parser's objects have a prototype without one); no Buffers, no streams. */
function isContainer(value: unknown): value is Container {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Normalises every string of a parsed JSON value (keys included), in place where it can, and returns the result.
 * Iterative, so a deeply nested body cannot overflow the stack; Buffers and streams are left alone.
 */
export function normaliseStrings<T>(value: T): T {
  if (typeof value === 'string') return normaliseText(value) as T;
  if (!isContainer(value)) return value;
  const stack: Container[] = [value];
  while (stack.length) {
    const node = stack.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'string') node[i] = normaliseText(item);
        else if (isContainer(item)) stack.push(item);
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      const item = node[key];
      const next = typeof item === 'string' ? normaliseText(item) : item;
      if (isContainer(next)) stack.push(next);
      const cleanKey = normaliseText(key);
      if (cleanKey !== key) delete node[key];
      // defineProperty, not assignment: a key that becomes "__proto__" must stay a plain property.
      if (cleanKey !== key || next !== item) Object.defineProperty(node, cleanKey, { value: next, enumerable: true, writable: true, configurable: true });
    }
  }
  return value;
}

// Fixed-length, so linear. Ids are checked before they reach PostgreSQL's uuid type, which would refuse them with an error.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a string is a UUID (any case), as ids in paths and queries must be. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A person as letters and notifications name them: name and surname, else the login. */
export const displayName = (u: { name: string; surname: string; userName: string }): string => [u.name, u.surname].filter(Boolean).join(' ') || u.userName;

/**
 * Who wrote a message, as a letter names them: a person by name, an administrator as «Администрация» (the site
 * speaks for itself; an admin's own name may be a role, «Администратор», ADR 046).
 */
export const senderName = (u: { name: string; surname: string; userName: string; roles: readonly string[] }): string =>
  u.roles.includes('admin') ? 'Администрация' : displayName(u);

const moscow = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Moscow' });
/**
 * A moment in the text the server writes (letters, chat system messages), read where no browser knows the reader's
 * zone: Moscow time, said so (ADR 046). "25 ноября 2026 г. в 14:30 МСК".
 */
export const moscowDateTime = (d: Date): string => `${moscow.format(d)} МСК`;
