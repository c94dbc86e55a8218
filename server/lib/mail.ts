import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { trimEnd } from '#contract/text';

/** One letter, in both forms: mail clients show the HTML, the plain text is the fallback. */
export interface Letter {
  subject: string;
  text: string;
  html: string;
  /** The page that switches this kind of letter off (the List-Unsubscribe header, RFC 2369). */
  unsubscribe?: string;
}

/** What nodemailer sends of a letter. */
const message = (to: string, letter: Letter) => ({
  to,
  subject: letter.subject,
  text: letter.text,
  html: letter.html,
  ...(letter.unsubscribe ? { list: { unsubscribe: { url: letter.unsubscribe, comment: 'Отписаться' } } } : {}),
});

export interface Mailer {
  /** Sends a letter; rejects when it could not be handed over (callers log and carry on). */
  send(to: string, letter: Letter): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL; without it letters go to outboxDir as .eml files. */
  smtpUrl?: string;
  outboxDir: string;
  /** The From header, e.g. `Подряд <no-reply@example.ru>`. */
  from: string;
  log: Logger;
}

/** Every http(s) URL in a text, without trailing punctuation. */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"'«»]+/g)].map((m) => trimEnd(m[0], '.,;:!?)]'));
}

/**
 * The transport, made at the first letter: nodemailer is loaded then, not at every start (ADR 018). Closing before
 * any letter closes nothing.
 */
function lazyTransport(make: (nm: typeof nodemailer) => Transporter) {
  let transport: Promise<Transporter> | null = null;
  return {
    get: () => (transport ??= import('nodemailer').then((m) => make(m.default))),
    close: async () => void (transport && (await transport).close()),
  };
}

export function createMailer(opts: MailerOptions): Mailer {
  return opts.smtpUrl ? smtpMailer(opts.smtpUrl, opts) : outboxMailer(opts);
}

function smtpMailer(url: string, opts: MailerOptions): Mailer {
  // The URL's own query parameters (e.g. ?connectionTimeout=…) override these defaults.
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }, { from: opts.from }),
  );
  return {
    async send(to, letter) {
      const info = await (await transport.get()).sendMail(message(to, letter));
      opts.log.debug({ to, subject: letter.subject, messageId: info.messageId }, 'mail sent');
    },
    close: transport.close,
  };
}

/** Development without SMTP: each letter becomes an .eml file and its links go to the log. */
function outboxMailer(opts: MailerOptions): Mailer {
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true }, { from: opts.from }));
  return {
    async send(to, letter) {
      const info = await (await transport.get()).sendMail(message(to, letter));
      await mkdir(opts.outboxDir, { recursive: true });
      // Colons are not allowed in Windows file names.
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(opts.outboxDir, name);
      await writeFile(file, info.message as Buffer);
      opts.log.info({ to, subject: letter.subject, links: linksIn(letter.text), file }, 'mail written to the outbox');
    },
    close: transport.close,
  };
}
