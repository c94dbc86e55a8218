import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessage, startSmtpSink, type SmtpSink } from '../test/smtp-sink.ts';
import { createMailer, linksIn, type Letter } from './mail.ts';

const link = 'https://podryad.example/auth/confirm?token=abc_DEF-123&next=%2Fprofile';
const letter: Letter = {
  subject: 'Подтвердите email на Подряде — ёжик',
  text: `Здравствуйте, Алёна!\n\nПодтвердите email: ${link}\n\nСсылка действительна 24 часа.\n`,
  html: `<p>Здравствуйте, Алёна!</p><p><a href="${link.replaceAll('&', '&amp;')}">Подтвердить</a></p>`,
};

function memoryLog() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(s) });
  return { log, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('linksIn', () => {
  it('finds http(s) URLs and drops trailing punctuation', () => {
    expect(linksIn('a https://x.ru/a?b=1. b (http://y.ru/c), ftp://z')).toEqual(['https://x.ru/a?b=1', 'http://y.ru/c']);
  });
});

describe('mailer over SMTP', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it('delivers both parts with the Russian text intact and the link extractable', async () => {
    const { log } = memoryLog();
    const mailer = createMailer({ smtpUrl: sink.url, outboxDir: '/nonexistent', from: 'Подряд <no-reply@podryad.test>', log });
    try {
      await mailer.send('alena@example.ru', letter);
      const got = await sink.waitFor((m) => m.to.includes('alena@example.ru'));
      expect(got.from).toBe('no-reply@podryad.test');
      expect(got.subject).toBe(letter.subject);
      expect(got.text).toBe(letter.text);
      expect(got.html).toBe(letter.html);
      expect(got.links).toEqual([link]);
      expect(got.raw).toMatch(/^Content-Type: multipart\/alternative/im);
      expect(got.raw).toMatch(/charset=utf-8/i);
    } finally {
      await mailer.close();
    }
  });

  it('keeps long lines, many links and a long subject intact', async () => {
    const { log } = memoryLog();
    const mailer = createMailer({ smtpUrl: sink.url, outboxDir: '/nonexistent', from: 'no-reply@podryad.test', log });
    const long: Letter = {
      subject: 'Очень длинная тема письма, которая точно не поместится в одну строку заголовка: '.repeat(3).trim(),
      text: `${'Съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(20)}\nhttp://localhost:3000/a\nhttps://b.example/${'x'.repeat(120)}\n`,
      html: `<p>${'Широкая электрификация южных губерний. '.repeat(30)}</p>`,
    };
    try {
      await mailer.send('long@example.ru', long);
      const got = await sink.waitFor((m) => m.to.includes('long@example.ru'));
      expect(got.subject).toBe(long.subject);
      expect(got.text).toBe(long.text);
      expect(got.html).toBe(long.html);
      expect(got.links).toEqual(['http://localhost:3000/a', `https://b.example/${'x'.repeat(120)}`]);
    } finally {
      await mailer.close();
    }
  });

  it('rejects when the server cannot be reached', async () => {
    const { log } = memoryLog();
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', outboxDir: '/nonexistent', from: 'no-reply@podryad.test', log });
    await expect(mailer.send('x@example.ru', letter)).rejects.toThrow();
    await mailer.close();
  });
});

describe('mailer without SMTP', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'podryad-outbox-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes an .eml file and logs the links', async () => {
    const { log, records } = memoryLog();
    const outboxDir = path.join(dir, 'nested', 'outbox');
    const mailer = createMailer({ outboxDir, from: 'Подряд <no-reply@localhost>', log });
    await mailer.send('alena@example.ru', letter);
    await mailer.close();

    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]+\.eml$/);
    const eml = await readFile(path.join(outboxDir, files[0]!), 'utf8');
    expect(eml).toMatch(/^Subject: /m);
    expect(eml).toMatch(/^To: alena@example.ru/m);
    const parsed = parseMessage(Buffer.from(eml));
    expect(parsed.subject).toBe(letter.subject);
    expect(parsed.text).toBe(letter.text);
    expect(parsed.html).toBe(letter.html);

    const entry = records().find((r) => r.msg === 'mail written to the outbox');
    expect(entry).toMatchObject({ level: 30, to: 'alena@example.ru', subject: letter.subject, links: [link] });
  });
});

describe('the test sink’s MIME reader', () => {
  it('decodes Q-encoded subjects split inside a character, soft line breaks and nested multiparts', () => {
    const raw = [
      'Subject: =?utf-8?Q?=D0=9F=D1=80=D0=B8=D0=B2=D0=B5=D1?=',
      ' =?utf-8?Q?=82_=D0=BC=D0=B8=D1=80?= and =?UTF-8?B?0ZHQttC40Lo=?=',
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      '--outer',
      'Content-Type: multipart/alternative; boundary="inner b"',
      '',
      '--inner b',
      'Content-Type: text/plain; charset="UTF-8"',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      '=D0=A1=D1=81=D1=8B=D0=BB=D0=BA=D0=B0: https://x.example/a?b=3D1&c=3D=',
      '2 =E2=80=94 =D0=B3=D0=BE=D1=82=D0=BE=D0=B2=D0=BE.',
      '--inner b',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<p>Ссылка</p>').toString('base64'),
      '--inner b--',
      '--outer',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Disposition: attachment; filename=a.txt',
      '',
      'not the body',
      '--outer--',
      '',
    ].join('\r\n');
    expect(parseMessage(Buffer.from(raw))).toMatchObject({
      subject: 'Привет мир and ёжик',
      text: 'Ссылка: https://x.example/a?b=1&c=2 — готово.',
      html: '<p>Ссылка</p>',
      links: ['https://x.example/a?b=1&c=2'],
    });
  });
});
