import { describe, expect, it } from 'vitest';
import {
  CONFIRM_TOKEN_TTL_MS,
  RESET_TOKEN_TTL_MS,
  confirmationLetter,
  emailChangeLetter,
  passwordResetLetter,
  projectDecisionLetter,
  serviceDecisionLetter,
  LETTER_KINDS,
  Letters,
  type LetterData,
  type LetterKind,
  readUnsubscribeToken,
  unsubscribeToken,
} from './index.ts';
import type { Letter } from '../../lib/mail.ts';
import type { OutboxWriter } from '../outbox.ts';
import { NOTIFICATION_KINDS } from '#contract/auth';
import { senderName } from '../../lib/text.ts';

const link = 'https://podryad.example/auth/confirm?token=abc123&next=%2F';
const params = { brand: 'Подряд', name: 'Алёна', link };

describe('account letters', () => {
  it('export the link lifetimes', () => {
    expect(CONFIRM_TOKEN_TTL_MS).toBe(24 * 60 * 60 * 1000);
    expect(RESET_TOKEN_TTL_MS).toBe(60 * 60 * 1000);
  });

  it('put the brand into the subjects', () => {
    expect(confirmationLetter(params).subject).toBe('Подтвердите email — Подряд');
    expect(passwordResetLetter(params).subject).toBe('Восстановление пароля — Подряд');
    expect(emailChangeLetter({ ...params, brand: 'Биржа' }).subject).toBe('Подтвердите новый email — Биржа');
    // The brand is a name in quotes after a noun, never declined: not «на Подряд».
    expect(confirmationLetter(params).text).toContain('Вы зарегистрировались на сервисе «Подряд».');
    expect(confirmationLetter(params).text).toContain('— Команда сервиса «Подряд»');
  });

  it('carry the link in the text and (escaped) in the html', () => {
    for (const letter of [confirmationLetter(params), passwordResetLetter(params), emailChangeLetter(params)]) {
      expect(letter.text).toContain(link);
      expect(letter.text).toContain('Алёна');
      expect(letter.html).toContain(`href="${link.replace('&', '&amp;')}"`);
      expect(letter.html).not.toContain(link); // the raw & never reaches the html
      expect(letter.html).toMatch(/^<!doctype html>/);
      expect(letter.html).not.toMatch(/<table/i);
    }
  });

  it('state how long the link works', () => {
    expect(confirmationLetter(params).text).toContain('24\u00a0часа');
    expect(emailChangeLetter(params).text).toContain('24\u00a0часа');
    const reset = passwordResetLetter(params);
    expect(reset.text).toContain('1\u00a0час');
    expect(reset.text).toContain('просто проигнорируйте письмо');
    expect(reset.html).toContain('просто проигнорируйте письмо');
  });

  it('escape every interpolated value in the html', () => {
    const evil = {
      brand: 'Б&<b>ренд</b>',
      name: '<script>alert("x")</script>',
      link: 'https://x.example/?a="><img src=x>',
    };
    for (const make of [confirmationLetter, passwordResetLetter, emailChangeLetter]) {
      const { html, text } = make(evil);
      expect(html).not.toContain('<script>');
      expect(html).not.toContain('<b>');
      expect(html).not.toContain('"><img');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      expect(html).toContain('Б&amp;&lt;b&gt;ренд&lt;/b&gt;');
      expect(text).toContain('<script>alert("x")</script>'); // plain text stays as it is
    }
  });

  it('greet without a name when there is none', () => {
    expect(confirmationLetter({ ...params, name: '  ' }).text).toMatch(/^Здравствуйте!\n/);
  });
});

describe('every letter', () => {
  const hostile = '<script>alert("x")</script>&<img src=x onerror=1>';
  const link = 'https://x.example/?a="><img src=x>&b=1';
  const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&lt;img src=x onerror=1&gt;';
  const base = { brand: hostile, name: hostile, link };
  const all = {
    confirmation: confirmationLetter(base),
    reset: passwordResetLetter(base),
    emailChange: emailChangeLetter(base),
    ...Object.fromEntries(
      (['approve', 'reject', 'hide', 'restore', 'edit'] as const).map((decision) => [
        `service ${decision}`,
        serviceDecisionLetter({ ...base, title: hostile, decision, reason: hostile }),
      ]),
    ),
    ...Object.fromEntries(
      (['hide', 'restore', 'edit'] as const).map((decision) => [
        `project ${decision}`,
        projectDecisionLetter({ ...base, title: hostile, decision, reason: hostile }),
      ]),
    ),
  };

  it.each(Object.entries(all))('%s escapes hostile names, titles, reasons and links in the html', (_kind, letter) => {
    expect(letter.html).not.toContain('<script');
    expect(letter.html).not.toContain('<img');
    expect(letter.html).not.toContain('"><img');
    expect(letter.html).toContain(escaped);
    // The only tags are the layout's own.
    const tags = new Set([...letter.html.matchAll(/<\/?([a-z]+)/g)].map((m) => m[1]));
    expect([...tags].sort()).toEqual(['a', 'body', 'br', 'div', 'head', 'html', 'meta', 'p', 'title']);
    expect(letter.text).toContain(hostile); // plain text stays as it is
    expect(letter.text).toContain(link);
  });

  it('service and project letters name the title and the reason', () => {
    const letter = serviceDecisionLetter({
      brand: 'Подряд',
      name: 'Алёна',
      link: 'https://p.example/profile/items',
      title: 'Логотип',
      decision: 'reject',
      reason: 'Копия',
    });
    expect(letter.subject).toBe('Услуга не прошла модерацию — Подряд');
    expect(letter.text).toContain('«Логотип»');
    expect(letter.text).toContain('Причина: Копия');
    const project = projectDecisionLetter({
      brand: 'Подряд',
      name: '',
      link: 'https://p.example/projects/design/1',
      title: 'Сайт',
      decision: 'hide',
      reason: 'Контакты',
    });
    expect(project.subject).toBe('Проект «Сайт» скрыт модератором — Подряд');
    expect(project.text).toMatch(/^Здравствуйте!\n/);
    expect(project.text).toContain('Причина: Контакты');
    expect(project.text).toContain('https://p.example/projects/design/1');
  });
});

describe('Letters.notify', () => {
  const secret = 'x'.repeat(32);
  const letters = new Letters({ brand: 'Подряд', siteUrl: () => 'https://p.example', secret });
  const outbox = () => {
    const mailed: { to: string; letter: Letter }[] = [];
    const noticed: { userId: string; kind: string; text: string; link: string }[] = [];
    const writer: OutboxWriter = {
      mail: (to, letter) => void mailed.push({ to, letter }),
      emit() {},
      notify: (userId, notice) => void noticed.push({ userId, ...notice }),
      job() {},
    };
    return { mailed, noticed, writer };
  };
  const person = (emailNotifications?: Record<string, boolean>) => ({
    id: 'u1',
    email: 'a@p.example',
    name: 'Алёна',
    preferences: { emailNotifications },
  });
  const moderation = { id: 's1', title: 'Логотип', decision: 'approve', reason: null } as const;

  it('queues a switchable kind when its preference is on or unset', () => {
    for (const prefs of [undefined, {}, { moderation: true, news: false }] as (Record<string, boolean> | undefined)[]) {
      const { mailed, writer } = outbox();
      expect(letters.notify(writer, person(prefs), 'service.decision', moderation)).toBe(true);
      expect(mailed).toHaveLength(1);
      expect(mailed[0]!.to).toBe('a@p.example');
      expect(mailed[0]!.letter.text).toContain('https://p.example/profile/items');
    }
  });

  it('queues no letter of a kind the person switched off, but the in-app notification all the same', () => {
    const { mailed, noticed, writer } = outbox();
    const off = person({ moderation: false });
    expect(letters.notify(writer, off, 'service.decision', moderation)).toBe(false);
    expect(
      letters.notify(writer, off, 'project.decision', { ...moderation, decision: 'restore', path: '/projects/x/1' }),
    ).toBe(false);
    expect(mailed).toEqual([]);
    expect(noticed).toEqual([
      {
        userId: 'u1',
        kind: 'service.decision',
        text: 'Услуга «Логотип» прошла модерацию и опубликована',
        link: '/profile/items/s1/edit',
      },
      { userId: 'u1', kind: 'project.decision', text: 'Проект «Логотип» снова опубликован', link: '/projects/x/1' },
    ]);
  });

  it('the answer to an appeal: the answer itself, escaped, with the appeals tab, and its notification (ADR 035)', () => {
    const { mailed, noticed, writer } = outbox();
    const data = {
      number: 12,
      subject: 'Вопрос администрации',
      answer: 'Ответ <b>жирный</b> & "кавычки"',
      path: '/profile/disputes?tab=appeals',
    };
    expect(letters.notify(writer, person({ disputes: false, moderation: false }), 'appeal.answered', data)).toBe(true);
    const letter = mailed[0]!.letter;
    expect(letter.subject).toBe('Ответ на ваше обращение №12 — Подряд');
    expect(letter.text).toContain('Ответ <b>жирный</b> & "кавычки"');
    expect(letter.html).toContain('Ответ &lt;b&gt;жирный&lt;/b&gt; &amp; &quot;кавычки&quot;');
    expect(letter.text).toContain('https://p.example/profile/disputes?tab=appeals');
    expect(noticed).toEqual([
      {
        userId: 'u1',
        kind: 'appeal.answered',
        text: 'Администрация ответила на ваше обращение №12 «Вопрос администрации»',
        link: '/profile/disputes?tab=appeals',
      },
    ]);
  });

  it('a switchable letter carries its unsubscribe link, in both forms and as List-Unsubscribe', () => {
    const { mailed, writer } = outbox();
    letters.notify(writer, person(), 'bid.accepted', { title: 'Сайт', chatId: 'c1' });
    const letter = mailed[0]!.letter;
    const link = `https://p.example/unsubscribe?token=${encodeURIComponent(unsubscribeToken(secret, 'u1', 'orders'))}`;
    expect(letter.unsubscribe).toBe(link);
    expect(letter.text).toContain(`Отписаться: ${link}`);
    expect(letter.html).toContain(`href="${link}"`);
    expect(readUnsubscribeToken(secret, new URL(link).searchParams.get('token')!)).toEqual({
      userId: 'u1',
      kind: 'orders',
    });
    // Transactional letters have none.
    letters.notify(writer, person(), 'account.confirm', { token: 't' });
    expect(mailed[1]!.letter.unsubscribe).toBeUndefined();
    expect(mailed[1]!.letter.text).not.toContain('Отписаться');
  });

  it('an unsubscribe token is good for its person and preference only, under its secret only', () => {
    const token = unsubscribeToken(secret, 'u1', 'orders');
    expect(readUnsubscribeToken(secret, token)).toEqual({ userId: 'u1', kind: 'orders' });
    const [, , sig] = token.split('.');
    expect(readUnsubscribeToken(secret, `u2.orders.${sig}`)).toBeNull();
    expect(readUnsubscribeToken(secret, `u1.bids.${sig}`)).toBeNull();
    expect(readUnsubscribeToken(secret, `${token.slice(0, -2)}AA`)).toBeNull();
    expect(readUnsubscribeToken('y'.repeat(32), token)).toBeNull();
    expect(readUnsubscribeToken(secret, 'u1.unknown.' + sig)).toBeNull();
    expect(readUnsubscribeToken(secret, '')).toBeNull();
  });

  it('every event kind has an in-app notification; only the account letters, the chat reminder and the receipt have none', () => {
    // A payment's receipt (ADR 042): the customer is on the payment page, and the order's chat says it was paid.
    expect(
      Object.entries(LETTER_KINDS)
        .filter(([, d]) => !('notice' in d))
        .map(([k]) => k)
        .sort(),
    ).toEqual([
      'account.confirm',
      'account.emailChange',
      'account.newDevice',
      'account.passwordReset',
      'account.twoFactorReset',
      'chat.unread',
      'payment.receipt',
      'payment.topUpReceipt',
      'privacy.deletionRequested',
    ]);
  });

  it('always queues the transactional kinds, whatever is switched off', () => {
    const { mailed, writer } = outbox();
    const everythingOff = person(Object.fromEntries(Object.keys(NOTIFICATION_KINDS).map((k) => [k, false])));
    expect(letters.notify(writer, everythingOff, 'account.confirm', { token: 't/1' })).toBe(true);
    expect(letters.notify(writer, everythingOff, 'account.passwordReset', { token: 't2' })).toBe(true);
    expect(letters.notify(writer, everythingOff, 'account.emailChange', { token: 't3' }, { to: 'new@p.example' })).toBe(
      true,
    );
    expect(mailed.map((m) => m.to)).toEqual(['a@p.example', 'a@p.example', 'new@p.example']);
    expect(mailed[0]!.letter.text).toContain('https://p.example/confirm_account?token=t%2F1');
    expect(mailed[1]!.letter.text).toContain('https://p.example/recover?token=t2');
  });

  it('tells of a sign-in from a new device: what, where, when, and what to do if it was not the person (ADR 055)', () => {
    const { mailed, writer } = outbox();
    const everythingOff = person(Object.fromEntries(Object.keys(NOTIFICATION_KINDS).map((k) => [k, false])));
    const at = '24 ноября 2026 г. в 10:00 МСК';
    expect(
      letters.notify(writer, everythingOff, 'account.newDevice', {
        device: 'Компьютер',
        os: 'Windows 10',
        browser: 'Chrome 120',
        address: '203.0.113.0/24',
        at,
      }),
    ).toBe(true);
    const { subject, text } = mailed[0]!.letter;
    expect(subject).toBe('Вход с нового устройства — Подряд');
    for (const part of [
      'Компьютер, Windows 10',
      'Браузер: Chrome 120',
      'Сеть: 203.0.113.0/24',
      at,
      'https://p.example/profile/settings',
      'смените пароль',
    ]) {
      expect(text).toContain(part);
    }
    // With a GeoIP database (ADR 059) the city stands beside the network.
    letters.notify(writer, everythingOff, 'account.newDevice', {
      device: 'Компьютер',
      os: 'Windows 10',
      browser: 'Chrome 120',
      address: '81.2.69.0/24',
      place: 'Лондон, Великобритания',
      at,
    });
    expect(mailed[1]!.letter.text).toContain('Место: Лондон, Великобритания (сеть 81.2.69.0/24).');
  });

  it('every kind is transactional or switched by a preference the settings page shows', () => {
    for (const def of Object.values(LETTER_KINDS)) {
      if (def.preference !== null) expect(Object.keys(NOTIFICATION_KINDS)).toContain(def.preference);
    }
    // The answer to an appeal too: the person asked for it (ADR 035); a payment's receipt, its proof (ADR 042); and
    // a refund to the card that did not go through, where the money is now (ADR 051).
    expect(
      Object.entries(LETTER_KINDS)
        .filter(([, d]) => d.preference === null)
        .map(([k]) => k)
        .sort(),
    ).toEqual([
      'account.confirm',
      'account.emailChange',
      'account.newDevice',
      'account.passwordReset',
      'account.twoFactorReset',
      'appeal.answered',
      'deal.ended',
      'deal.ending',
      'payment.receipt',
      'payment.refundRefused',
      'payment.topUpReceipt',
      'payout.detailsNeeded',
      'privacy.deletionRequested',
    ]);
  });
});

describe('the wording of every letter and notification (ADR 046)', () => {
  // One sample of every kind: a kind added without a sample does not compile.
  const SAMPLES: { [K in LetterKind]: LetterData<K> } = {
    'account.confirm': { token: 't' },
    'account.passwordReset': { token: 't' },
    'account.emailChange': { token: 't' },
    'account.newDevice': {
      device: 'Смартфон Apple iPhone',
      os: 'iOS 17.0',
      browser: 'Safari 17',
      address: '203.0.113.0/24',
      at: '24 ноября 2026 г. в 10:00 МСК',
    },
    'account.twoFactorReset': {},
    'service.decision': { id: 's1', title: 'Логотип', decision: 'hide', reason: 'Копия' },
    'project.decision': { title: 'Сайт', decision: 'edit', reason: null, path: '/projects/x/1' },
    'withdrawal.decision': { amount: '1\u00a0500 руб.', decision: 'approve', reason: null },
    'payment.refundRefused': { amount: '1\u00a0500 руб.', number: 7, title: 'Логотип' },
    'payout.detailsNeeded': { amount: '1\u00a0500 руб.', number: 7, title: 'Логотип', returned: false },
    'privacy.deletionRequested': { due: '1 декабря 2026 г. в 10:00 МСК' },
    'deal.ending': {
      number: 7,
      title: 'Логотип',
      date: '1 декабря 2026 г. в 10:00 МСК',
      payout: true,
      amount: '1\u00a0500 руб.',
      path: '/profile/finance',
    },
    'deal.ended': { number: 7, title: 'Логотип', amount: '1\u00a0500 руб.', seller: true },
    'bid.new': { title: 'Сайт', seller: 'Светлана Орлова', price: '5\u00a0000 руб.', days: '3\u00a0дня' },
    'bid.accepted': { title: 'Сайт', chatId: 'c1' },
    'bid.rejected': { title: 'Сайт' },
    'order.event': { number: 7, title: 'Логотип', event: 'paid', path: '/profile/orders' },
    'order.stageFunding': {
      number: 7,
      title: 'Лендинг',
      stage: { number: 2, title: 'Макеты' },
      seller: false,
      path: '/payments/s2',
    },
    'chat.unread': { from: 'Администрация', lines: ['Здравствуйте'], count: 1, chatId: 'c1', orderChat: false },
    'review.new': { author: 'Светлана Орлова', rating: 5, number: 7, title: 'Логотип', path: '/profile/reviews' },
    'review.answered': { author: 'Светлана Орлова', number: 7, title: 'Логотип', path: '/profile/reviews' },
    'appeal.answered': { number: 3, subject: 'Вопрос', answer: 'Ответ', path: '/profile/disputes?tab=appeals' },
    'dispute.event': { id: 'd1', number: 7, title: 'Логотип', event: 'opened', decision: null },
    'payment.receipt': {
      number: 7,
      title: 'Логотип',
      lines: ['Логотип — 1\u00a0500\u00a0руб.'],
      amount: '1\u00a0500\u00a0руб.',
      method: 'Банковская карта',
      fee: null,
      paidAt: '24.11.2026, 10:00 МСК',
      credited: false,
      path: '/payments/o1',
    },
    'payment.topUpReceipt': {
      credited: '1\u00a0500\u00a0руб.',
      amount: '15,15\u00a0USDT',
      method: 'USDT (TRC-20)',
      fee: '15\u00a0руб.',
      paidAt: '24.11.2026, 10:00 МСК',
      path: '/profile/finance',
    },
  };
  const send = (brand: string) => {
    const letters = new Letters({ brand, siteUrl: () => 'https://p.example', secret: 'x'.repeat(32) });
    const mailed: Letter[] = [];
    const noticed: string[] = [];
    const writer: OutboxWriter = {
      mail: (_to, letter) => void mailed.push(letter),
      emit() {},
      notify: (_id, n) => void noticed.push(n.text),
      job() {},
    };
    for (const [kind, data] of Object.entries(SAMPLES)) {
      letters.notify(
        writer,
        { id: 'u1', email: 'a@p.example', name: 'Алёна', preferences: {} },
        kind as LetterKind,
        data as never,
      );
    }
    return { mailed, noticed };
  };

  it('every subject ends with « — brand», whatever the operator named the site', () => {
    for (const brand of ['Подряд', 'Биржа Мастеров']) {
      const { mailed } = send(brand);
      expect(mailed).toHaveLength(Object.keys(LETTER_KINDS).length);
      for (const letter of mailed) expect(letter.subject).toMatch(new RegExp(` — ${brand}$`));
      for (const letter of mailed) expect(letter.subject).not.toContain(` — ${brand} — `);
    }
  });

  it('no verb guesses a gender, no brand is declined, names stand in the nominative', () => {
    const { mailed, noticed } = send('Подряд');
    const all = [...mailed.map((l) => `${l.subject}\n${l.text}`), ...noticed].join('\n');
    expect(all).not.toMatch(/\(а\)|\(ла\)/);
    expect(all).not.toMatch(/на Подряд\b|от Администратор|Администратор Администратор/);
    expect(all).toContain('Отправитель: Администрация.');
    expect(all).toContain('Автор отзыва: Светлана Орлова.');
    expect(all).toContain('Автор ответа: Светлана Орлова.');
    expect(all).toContain('Исполнитель: Светлана Орлова.');
  });

  it('an admin writing in a chat is «Администрация» in a letter, a person their name', () => {
    expect(senderName({ name: 'Администратор', surname: '', userName: 'admin', roles: ['admin'] })).toBe(
      'Администрация',
    );
    expect(senderName({ name: 'Светлана', surname: 'Орлова', userName: 'sveta', roles: ['seller', 'customer'] })).toBe(
      'Светлана Орлова',
    );
  });

  it("a dispute's letters and notifications, and the reminder of its chat, open the dispute itself", () => {
    const letters = new Letters({ brand: 'Подряд', siteUrl: () => 'https://p.example', secret: 'x'.repeat(32) });
    const mailed: Letter[] = [];
    const links: string[] = [];
    const writer: OutboxWriter = {
      mail: (_to, letter) => void mailed.push(letter),
      emit() {},
      notify: (_id, n) => void links.push(n.link),
      job() {},
    };
    const person = { id: 'u1', email: 'a@p.example', name: 'Алёна', preferences: {} };
    letters.notify(writer, person, 'dispute.event', SAMPLES['dispute.event']);
    letters.notify(writer, person, 'chat.unread', { ...SAMPLES['chat.unread'], disputeId: 'd1' });
    expect(links).toEqual(['/profile/disputes?dispute=d1']);
    for (const letter of mailed) expect(letter.text).toContain('https://p.example/profile/disputes?dispute=d1');
  });
});

describe('letters and notifications of a stage name it (ADR 065)', () => {
  const letters = new Letters({ brand: 'Подряд', siteUrl: () => 'https://p.example', secret: 'x'.repeat(32) });
  const person = { id: 'u1', email: 'a@p.example', name: 'Алёна', preferences: {} };
  const stage = { number: 1042, title: 'Лендинг', stage: { number: 2, title: 'Макеты' } };
  const whole = { number: 1042, title: 'Лендинг', stage: null };
  function send<K extends LetterKind>(kind: K, data: LetterData<K>) {
    const mailed: Letter[] = [];
    const notices: { text: string; link: string }[] = [];
    const writer: OutboxWriter = {
      mail: (_to, l) => void mailed.push(l),
      emit() {},
      notify: (_id, n) => void notices.push(n),
      job() {},
    };
    letters.notify(writer, person, kind, data);
    return { letter: mailed[0], notice: notices[0] };
  }
  const EVENTS = [
    'created',
    'paid',
    'delivered',
    'revision',
    'completed',
    'autoCompleted',
    'cancelled',
    'cancelProposed',
    'cancelDeclined',
  ] as const;

  it('every order event: the subject, the text and the notification name the stage and its head’s number, never «заказ №» alone', () => {
    for (const event of EVENTS) {
      const { letter, notice } = send('order.event', { ...stage, event, path: '/profile/messages?tab=orders&chat=c1' });
      for (const text of [letter!.subject, letter!.text, notice!.text])
        expect(text, `${event}: ${text}`).toMatch(/[Ээ]тап(а|у|е)? 2 «Макеты» заказа №1042/);
      expect(notice!.link).toBe('/profile/messages?tab=orders&chat=c1');
    }
    const delivered = send('order.event', { ...stage, event: 'delivered', path: '/p' });
    expect(delivered.letter!.subject).toBe('Работа по этапу 2 «Макеты» заказа №1042 сдана — Подряд');
    expect(delivered.notice!.text).toBe('Работа по этапу 2 «Макеты» заказа №1042 сдана');
    expect(send('order.event', { ...stage, event: 'paid', path: '/p' }).notice!.text).toBe(
      'Этап 2 «Макеты» заказа №1042 оплачен — можно приступать',
    );
  });

  it('a whole order keeps its words', () => {
    const paid = send('order.event', { ...whole, event: 'paid', path: '/p' });
    expect(paid.letter!.subject).toBe('Заказ №1042 оплачен — Подряд');
    expect(paid.letter!.text).toContain('Заказ №1042 «Лендинг» оплачен. Можно приступать к работе — срок идёт.');
    expect(paid.notice!.text).toBe('Заказ №1042 «Лендинг» оплачен — можно приступать');
    expect(send('order.event', { ...whole, event: 'cancelDeclined', path: '/p' }).letter!.subject).toBe(
      'Отмена заказа №1042 отклонена — Подряд',
    );
    expect(send('dispute.event', { ...whole, id: 'd1', event: 'resolved', decision: null }).notice!.text).toBe(
      'Решение по спору о заказе №1042 «Лендинг»',
    );
  });

  it('a dispute over a stage, its receipt and a refused refund name the stage', () => {
    for (const event of ['opened', 'cancelled', 'resolved'] as const) {
      const { letter, notice } = send('dispute.event', { ...stage, id: 'd1', event, decision: null });
      for (const text of [letter!.subject, letter!.text, notice!.text])
        expect(text, `${event}: ${text}`).toMatch(/этап(а|у|е)? 2 «Макеты» заказа №1042/);
    }
    expect(send('dispute.event', { ...stage, id: 'd1', event: 'opened', decision: null }).letter!.text).toContain(
      'Этап остановлен до решения арбитража',
    );
    expect(send('dispute.event', { ...stage, id: 'd1', event: 'resolved', decision: null }).notice!.text).toBe(
      'Решение по спору об этапе 2 «Макеты» заказа №1042',
    );
    const receipt = send('payment.receipt', {
      ...stage,
      lines: ['Макеты — 5\u00a0000\u00a0руб.'],
      amount: '5\u00a0000\u00a0руб.',
      method: 'Баланс',
      fee: null,
      paidAt: '24.11.2026, 10:00 МСК',
      credited: false,
      path: '/payments/s2',
    });
    expect(receipt.letter!.subject).toBe('Оплата этапа 2 «Макеты» заказа №1042 получена — Подряд');
    expect(receipt.letter!.text).toContain('Назначение: Оплата этапа 2 «Макеты» заказа №1042');
    const refused = send('payment.refundRefused', { ...stage, amount: '5\u00a0000 руб.' });
    expect(refused.notice!.text).toBe(
      'Возврат 5\u00a0000 руб. по этапу 2 «Макеты» заказа №1042 не прошёл на карту — деньги на вашем балансе',
    );
  });

  it('the safe deal’s and the payout’s letters name a stage; a whole order keeps its words', () => {
    const ending = send('deal.ending', {
      ...stage,
      date: '1 декабря 2026 г. в 10:00 МСК',
      payout: false,
      amount: '5\u00a0000 руб.',
      path: '/p',
    });
    expect(ending.notice!.text).toBe(
      'Безопасная сделка по этапу 2 «Макеты» заказа №1042 закончится 1 декабря 2026 г. в 10:00 МСК: завершите этап до этого дня',
    );
    expect(ending.letter!.text).toContain('Если этап не будет завершён до этого дня');
    const waiting = send('deal.ending', {
      ...stage,
      date: '1 декабря',
      payout: true,
      amount: '5\u00a0000 руб.',
      path: '/p',
    });
    expect(waiting.letter!.text).toContain('Оплата 5\u00a0000 руб. за этап 2 «Макеты» заказа №1042 ждёт');
    const ended = send('deal.ended', { ...stage, amount: '5\u00a0000 руб.', seller: true });
    expect(ended.letter!.subject).toBe('Срок безопасной сделки по этапу 2 «Макеты» заказа №1042 истёк — Подряд');
    const details = send('payout.detailsNeeded', { ...stage, amount: '4\u00a0250 руб.', returned: false });
    expect(details.notice!.text).toBe(
      'Укажите карту или кошелёк для выплаты 4\u00a0250 руб. за этап 2 «Макеты» заказа №1042',
    );
    expect(details.letter!.text).toContain('Этап 2 «Макеты» заказа №1042 завершён.');
    expect(send('deal.ended', { ...whole, amount: '5\u00a0000 руб.', seller: false }).notice!.text).toBe(
      'Срок безопасной сделки по заказу №1042 истёк: ЮKassa вернула 5\u00a0000 руб. заказчику',
    );
    expect(send('payout.detailsNeeded', { ...whole, amount: '1 руб.', returned: false }).letter!.text).toContain(
      'Заказ №1042 завершён.',
    );
  });

  it('the funding reminder: the customer is asked to pay the stage, the seller to wait for it', () => {
    const customer = send('order.stageFunding', { ...stage, seller: false, path: '/payments/s2' });
    expect(customer.notice).toMatchObject({
      text: 'Оплатите этап 2 «Макеты» заказа №1042, чтобы исполнитель начал работу',
      link: '/payments/s2',
    });
    expect(customer.letter!.subject).toBe('Оплатите этап 2 «Макеты» заказа №1042 — Подряд');
    expect(customer.letter!.text).toContain('https://p.example/payments/s2');
    const seller = send('order.stageFunding', { ...stage, seller: true, path: '/profile/messages?tab=orders&chat=c1' });
    expect(seller.notice!.text).toBe('Этап 2 «Макеты» заказа №1042 ещё не оплачен — начинайте работу после оплаты');
    expect(seller.letter!.text).toContain('Начинайте работу по нему после оплаты');
  });
});
