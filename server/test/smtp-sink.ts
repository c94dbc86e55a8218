import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { trimEnd } from '#contract/text';

/** A letter the sink received, parsed enough for tests to read it. */
export interface SinkMessage {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The whole RFC 822 message as received (decoded as UTF-8). */
  raw: string;
  subject: string;
  /** The text/plain part, decoded, with \n line ends. */
  text: string;
  /** The text/html part, decoded. */
  html: string;
  /** Every http(s) URL in the text part. */
  links: string[];
}

export interface SmtpSink {
  /** smtp://127.0.0.1:PORT, ready for SMTP_URL. */
  url: string;
  messages: SinkMessage[];
  /** The first message (already received or arriving later) that matches. */
  waitFor(predicate: (m: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback, without TLS or authentication, that keeps what it receives. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const arrivals = new EventEmitter();

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 1000,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'sink' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        try {
          const envelope = session.envelope;
          const message: SinkMessage = {
            from: envelope.mailFrom ? envelope.mailFrom.address : '',
            to: envelope.rcptTo.map((r) => r.address),
            ...parseMessage(Buffer.concat(chunks)),
          };
          messages.push(message);
          arrivals.emit('message', message);
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  // Client-side hiccups (a dropped connection) must not crash the test run.
  server.on('error', () => {});

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = 10_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onMessage = (m: SinkMessage) => {
          if (!predicate(m)) return;
          clearTimeout(timer);
          arrivals.off('message', onMessage);
          resolve(m);
        };
        const timer = setTimeout(() => {
          arrivals.off('message', onMessage);
          reject(new Error(`smtp sink: no matching message within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        arrivals.on('message', onMessage);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- A minimal MIME reader, enough for what nodemailer writes --------------------------------------
// The message is handled as a binary (latin1) string so every character is one byte; parts are turned
// into bytes again before their charset is applied.

interface Part {
  headers: Map<string, string>;
  body: string;
}

/** Subject, text, html and links of a raw RFC 822 message. */
export function parseMessage(raw: Buffer): Pick<SinkMessage, 'raw' | 'subject' | 'text' | 'html' | 'links'> {
  const root = splitPart(raw.toString('latin1'));
  let text: string | undefined;
  let html: string | undefined;
  const visit = (part: Part) => {
    const { type, params } = contentType(part);
    if (type.startsWith('multipart/') && params.boundary) {
      for (const child of multipartChildren(part.body, params.boundary)) visit(child);
      return;
    }
    if (/^attachment\b/i.test(part.headers.get('content-disposition') ?? '')) return;
    if (type === 'text/plain' && text === undefined) text = decodeBody(part, params.charset).replace(/\r\n/g, '\n');
    if (type === 'text/html' && html === undefined) html = decodeBody(part, params.charset);
  };
  visit(root);
  const plain = text ?? '';
  return {
    raw: raw.toString('utf8'),
    subject: decodeHeader(root.headers.get('subject') ?? ''),
    text: plain,
    html: html ?? '',
    links: [...plain.matchAll(/https?:\/\/[^\s<>"'«»]+/g)].map((m) => trimEnd(m[0], '.,;:!?)]')),
  };
}

function splitPart(source: string): Part {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  // Unfolding: a line that starts with white space continues the previous one.
  for (const line of head.split(/\r?\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).replace(/\r?\n/g, '').trim());
  }
  return { headers, body };
}

function contentType(part: Part): { type: string; params: Record<string, string> } {
  const value = part.headers.get('content-type') ?? 'text/plain; charset=us-ascii';
  const type = value.split(';')[0]!.trim().toLowerCase();
  const params: Record<string, string> = {};
  for (const m of value.matchAll(/;\s*([^=\s;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]+)/g)) {
    const raw = m[2]!;
    params[m[1]!.toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return { type, params };
}

function multipartChildren(body: string, boundary: string): Part[] {
  const parts: string[][] = [];
  let current: string[] | null = null;
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      current = [];
      parts.push(current);
    } else {
      current?.push(line);
    }
  }
  return parts.map((lines) => splitPart(lines.join('\r\n')));
}

function decodeBody(part: Part, charset = 'utf-8'): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').trim().toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = qpBytes(part.body.replace(/=\r?\n/g, ''), false);
  else bytes = Buffer.from(part.body, 'latin1');
  return decodeCharset(bytes, charset);
}

/** Quoted-printable (body) or RFC 2047 Q (headers, where _ is a space) to bytes. */
function qpBytes(source: string, qEncoding: boolean): Buffer {
  const out: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const hex = source.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else if (qEncoding && c === '_') out.push(0x20);
    else out.push(source.charCodeAt(i) & 0xff);
  }
  return Buffer.from(out);
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

const ENCODED_WORD = /=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g;

/** Decodes RFC 2047 encoded words; adjacent words of one charset are joined first, as a character may span two. */
function decodeHeader(value: string): string {
  const utf8 = Buffer.from(value, 'latin1').toString('utf8').replace(/(\?=)[ \t]+(?==\?)/g, '$1');
  return utf8.replace(/(?:=\?[^?*]+(?:\*[^?]*)?\?[BbQq]\?[^?]*\?=)+/g, (run) => {
    let result = '';
    let charset = '';
    let pending: Buffer[] = [];
    const flush = () => {
      if (pending.length) result += decodeCharset(Buffer.concat(pending), charset);
      pending = [];
    };
    for (const [, cs, enc, data] of run.matchAll(ENCODED_WORD)) {
      if (cs!.toLowerCase() !== charset) flush();
      charset = cs!.toLowerCase();
      pending.push(enc!.toUpperCase() === 'B' ? Buffer.from(data!, 'base64') : qpBytes(data!, true));
    }
    flush();
    return result;
  });
}
