import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser } from '../../db/factories.ts';
import { createProject, createService } from '../../db/catalog-factories.ts';
import { searchQueries, searchWords } from './schema.ts';
import { services } from '../services/schema.ts';
import { categories, subCategories } from '../lookups/schema.ts';
import { call } from '../../test/api.ts';
import { DEFAULT_SEARCH_SYNONYMS } from '#contract/settings';
import { MIN_SEARCHES } from './service.ts';
import { statementEvents, statementsDuring } from '../../test/statements.ts';
import { deadWords } from '../services/queries/search-reads.ts';
import { correctedQuery, synonymIndex, unknownWords } from '../../platform/listing/search.ts';

// Search quality (ADR 028): category titles in the document, the last word as a prefix, the operator's
// synonyms, typo correction, suggestions that find something, and projects searched the same way.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
let adminToken: string;
const ids: Record<string, string> = {};

interface Listing {
  result: { _id: string; title: string }[];
  total: number;
  next: string | null;
  corrected?: string;
  partial?: boolean;
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  await app.ready();
  const seller = await createUser(database.db, { role: 'seller' });
  const customer = await createUser(database.db, { role: 'customer' });
  adminToken = await app.services.tokens.sign(await createUser(database.db, { role: 'admin' }));
  const add = async (key: string, values: Parameters<typeof createService>[2]) => (ids[key] = (await createService(database.db, seller.id, values)).id);
  await add('logo', { category: 'design', sub: 'logo-design', title: 'Нарисую эмблему для кафе', tags: ['эмблема'], description: 'Три варианта эмблемы.' });
  await add('bot', { category: 'development', sub: 'bots-development', title: 'Сделаю Telegram-бота для заказов', tags: ['бот'], description: 'Бот на Python.' });
  await add('wp', { category: 'development', title: 'Доработаю сайт на WordPress', tags: ['wordpress'], description: 'Правки и плагины.' });
  await add('seo', { category: 'seo-traffic', title: 'Проведу SEO-аудит сайта', tags: ['аудит'], description: 'Отчёт с рекомендациями.' });
  await add('titleHit', { category: 'texts-translations', title: 'Напишу сценарий ролика', tags: ['ролик'], description: 'Для рекламы.' });
  await add('descHit', { category: 'audio-video', title: 'Смонтирую видео для соцсетей', tags: ['монтаж'], description: 'Могу написать сценарий ролика.' });
  await createProject(database.db, customer.id, { category: 'development', title: 'Нужен бот в Telegram для записи клиентов', description: 'Запись и напоминания.' });
  await createProject(database.db, customer.id, { category: 'design', title: 'Логотип для пекарни', description: 'Три варианта.' });
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const search = async (q: string, extra: Record<string, string> = {}) => {
  const res = await call<Listing['result']>(app, 'GET', '/api/services', { query: { q, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Listing;
};
const found = async (q: string) => (await search(q)).result.map((s) => s._id);
const setSynonyms = async (groups: string[][]) => {
  const res = await call(app, 'PUT', '/api/admin/settings', { token: adminToken, body: { 'search.synonyms': groups } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe('what is searched', () => {
  it('finds a service by its category and sub-category titles', async () => {
    expect(await found('дизайн')).toEqual([ids.logo]);
    expect(await found('логотипы')).toEqual([ids.logo]);
    expect(await found('чат-боты')).toEqual([ids.bot]);
  });

  it('weighs the title above the description', async () => {
    expect(await found('сценарий ролика')).toEqual([ids.titleHit, ids.descHit]);
  });

  it('follows a service moved to another category, and a renamed category or sub-category', async () => {
    const design = (await database.db.select().from(categories).where(eq(categories.slug, 'design')))[0]!;
    const logos = (await database.db.select().from(subCategories).where(eq(subCategories.slug, 'logo-design')))[0]!;
    await database.db.update(categories).set({ title: 'Графика' }).where(eq(categories.id, design.id));
    await database.db.update(subCategories).set({ title: 'Эмблемы и знаки' }).where(eq(subCategories.id, logos.id));
    try {
      expect(await found('графика')).toEqual([ids.logo]);
      expect(await found('знаки')).toEqual([ids.logo]);
      expect(await found('логотипы')).toEqual([]);
    } finally {
      await database.db.update(categories).set({ title: design.title }).where(eq(categories.id, design.id));
      await database.db.update(subCategories).set({ title: logos.title }).where(eq(subCategories.id, logos.id));
    }
    expect(await found('дизайн')).toEqual([ids.logo]);

    await database.db.update(services).set({ categoryId: design.id, subCategoryId: null }).where(eq(services.id, ids.seo!));
    try {
      expect(new Set(await found('дизайн'))).toEqual(new Set([ids.logo, ids.seo]));
    } finally {
      const seo = (await database.db.select().from(categories).where(eq(categories.slug, 'seo-traffic')))[0]!;
      await database.db.update(services).set({ categoryId: seo.id }).where(eq(services.id, ids.seo!));
    }
    expect(await found('дизайн')).toEqual([ids.logo]);
  });

  it('keeps the vocabulary of typo correction from titles, tags and categories', async () => {
    const words = (await database.db.select().from(searchWords)).map((r) => r.word);
    expect(words).toEqual(expect.arrayContaining(['эмблему', 'telegram', 'дизайн', 'логотипы', 'графика']));
    expect(words.every((w) => w.length >= 3)).toBe(true);
    expect(words.every((w) => w === w.toLowerCase() && !w.includes('ё'))).toBe(true);
  });
});

describe('as you type', () => {
  it('matches the last word as a prefix, and only the last', async () => {
    expect(await found('эмбл')).toEqual([ids.logo]);
    expect(await found('дизай')).toEqual([ids.logo]);
    // Not a prefix in the middle: "дизай" finds nothing there, and is corrected.
    expect((await search('дизай кафе')).corrected).toBe('дизайн кафе');
  });

  it('pages a prefix search with its cursor, in every sort', async () => {
    for (const sort of ['popular', 'new', 'price_asc', 'price_desc', 'rating']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Listing = await search('сай', { sort, limit: '1', ...(cursor ? { cursor } : {}) });
        seen.push(...page.result.map((s) => s._id));
        cursor = page.next;
      } while (cursor);
      expect(new Set(seen), sort).toEqual(new Set([ids.wp, ids.seo]));
      expect(seen).toHaveLength(2);
    }
  });
});

describe('synonyms', () => {
  it('finds Latin names by their Russian spellings and back, from the default dictionary', async () => {
    expect(DEFAULT_SEARCH_SYNONYMS.length).toBeGreaterThan(20);
    expect(await found('телеграм')).toEqual([ids.bot]);
    expect(await found('телеграм бот')).toEqual([ids.bot]);
    expect(await found('вордпресс')).toEqual([ids.wp]);
    expect(await found('вордп')).toEqual([ids.wp]);
    expect(await found('сео')).toEqual([ids.seo]);
    expect(await found('сео аудит')).toEqual([ids.seo]);
  });

  it('takes an operator\'s change at once, audited, and forgets a removed group', async () => {
    expect(await found('кофейня')).toEqual([]);
    await setSynonyms([...DEFAULT_SEARCH_SYNONYMS, ['кафе', 'кофейня']]);
    expect(await found('кофейня')).toEqual([ids.logo]);
    const audited = (await database.db.execute(sql`select details from audit_log where action = 'settings.update'`)) as unknown as { rows: { details: unknown }[] };
    expect(JSON.stringify(audited.rows)).toContain('кофейня');
    await setSynonyms(DEFAULT_SEARCH_SYNONYMS);
    expect(await found('кофейня')).toEqual([]);
  });

  it('refuses a group of one word or of no letters with a Russian 400', async () => {
    for (const bad of [[['одно']], [['!!!', 'слово']], 'не массив']) {
      const res = await call(app, 'PUT', '/api/admin/settings', { token: adminToken, body: { 'search.synonyms': bad } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/[а-я]/i);
    }
  });
});

describe('typos', () => {
  it('answers a search that finds nothing with the results of the corrected query', async () => {
    const answer = await search('эмлбему');
    expect(answer.corrected).toBe('эмблему');
    expect(answer.result.map((s) => s._id)).toEqual([ids.logo]);
    expect((await search('сдеаю телеграм')).corrected).toBe('сделаю телеграм');
  });

  it('knows which words no title, tag or category has (their searches have their estimate checked)', async () => {
    expect(await unknownWords(database.db, 'Эмлбему для дизайн телеграм 2024 кафе', synonymIndex(DEFAULT_SEARCH_SYNONYMS))).toEqual(['эмлбему']);
    expect(await unknownWords(database.db, 'телеграм')).toEqual(['телеграм']);
    expect(await unknownWords(database.db, 'эмблему', synonymIndex([['эмблему', 'эмлбему']]))).toEqual([]);
    // The word being typed is known when a word of the catalogue begins with it (the query asks for those).
    expect(await unknownWords(database.db, 'дизайн логоти')).toEqual([]);
    expect(await unknownWords(database.db, 'логоти дизайн')).toEqual(['логоти']);
    expect(await unknownWords(database.db, 'дизайн кафъ')).toEqual(['кафъ']);
    // Another form of a known word is known: its lexeme is the one the statistics have.
    expect(await unknownWords(database.db, 'дизайна дизайнами')).toEqual([]);
  });

  it('corrects nothing that is known, being typed, or has nothing near', async () => {
    expect((await search('эмблему')).corrected).toBeUndefined();
    expect((await search('кафе эмбл')).corrected).toBeUndefined();
    const none = await search('ъъъъъъ');
    expect(none.corrected).toBeUndefined();
    expect(none.result).toEqual([]);
    // Another form of a known word is known, so never replaced: its nearest word would be its own lexeme (the same
    // search again) or another word. Only the unknown words are looked up.
    const correct = async (text: string) => correctedQuery(database.db, text, await unknownWords(database.db, text));
    expect(await correct('эмблемами бот')).toBeNull();
    expect(await correct('эмблемами сдеаю')).toBe('эмблемами сделаю');
  });

  it('a corrected search counts as its correction for the suggestions', async () => {
    for (let i = 0; i < MIN_SEARCHES; i++) {
      await call(app, 'GET', '/api/services', { query: { q: 'эмлбему' }, remoteAddress: `198.51.100.${i + 1}` });
    }
    await app.services.searchSuggestions.flush();
    const rows = (await database.db.select().from(searchQueries)).map((r) => r.query);
    expect(rows).toContain('эмблему');
    expect(rows).not.toContain('эмлбему');
  });
});

describe('partial matches (ADR 044)', () => {
  it('answers a search no service matches with every word with those matching the most words, marked partial', async () => {
    const answer = await search('эмблема сайта');
    expect(answer.partial).toBe(true);
    expect(answer.result.map((s) => s._id).sort()).toEqual([ids.logo, ids.wp, ids.seo].sort());
    expect(answer.total).toBe(3);
    // More words matched first (three of four: the tag, and the description's two), then the rank.
    const ranked = await search('сценарий ролика монтаж свадьбы');
    expect(ranked.partial).toBe(true);
    expect(ranked.result.map((s) => s._id)).toEqual([ids.descHit, ids.titleHit]);
    // An excluded word stays excluded; a search matched as a whole is not partial; `or` asks for any already.
    expect((await search('эмблема сайта -wordpress')).result.map((s) => s._id).sort()).toEqual(
      [ids.logo, ids.seo].sort(),
    );
    expect((await search('сценарий ролика')).partial).toBeUndefined();
    expect((await search('эмблема or сайта')).partial).toBeUndefined();
    expect((await search('ъъъъъъ ыыыыыы')).result).toEqual([]);
  });

  it('waits for each read only where the next needs it', async () => {
    // The statements a search starts and ends, in order.
    const events = (q: string) => statementEvents(database.db, () => search(q));
    const completions = (e: string) => e.includes('from search_words where word >');
    const unknown = (e: string) => e.includes('cross join lateral');
    const correction = (e: string) => e.includes('similarity(');
    const services = (e: string) => e.includes('from "services"');

    // The words checked against the vocabulary and the last word's completions, together; the completions are
    // read once, though the search goes on to its partial matches.
    const partial = await events('эмблема сайта');
    expect(partial.filter((e) => e.startsWith('start') && completions(e))).toHaveLength(1);
    expect(partial.findIndex((e) => e.startsWith('start') && completions(e))).toBeLessThan(partial.findIndex((e) => e.startsWith('end') && unknown(e)));

    // A search with an unknown word: its correction is looked up while the search itself runs.
    const typo = await events('эмблема сайтф');
    const corrected = typo.findIndex((e) => e.startsWith('start') && correction(e));
    expect(corrected).toBeGreaterThan(-1);
    expect(corrected).toBeLessThan(typo.findIndex((e) => e.startsWith('end') && services(e)));
  });

  it('pages partial matches with their own cursor, keeping the filters', async () => {
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const answer = await search('эмблема сайта', { limit: '1', ...(cursor ? { cursor } : {}) });
      expect(answer.partial).toBe(true);
      seen.push(...answer.result.map((s) => s._id));
      cursor = answer.next;
    } while (cursor);
    expect(seen.sort()).toEqual([ids.logo, ids.wp, ids.seo].sort());
    expect((await search('эмблема сайта', { category: 'design' })).result.map((s) => s._id)).toEqual([ids.logo]);
    const bad = await call(app, 'GET', '/api/services', { query: { q: 'сайта', cursor: 'WyJwYXJ0aWFsIl0' } });
    expect(bad.status).toBe(400);
  });

  it('leave out the words found nowhere: one word left is its own search, in the order asked, with its own cursor', async () => {
    // «для» is a stop word and «барбершопа» is in no service: every match of the rest has «ролика» alone.
    const answer = await search('ролика для барбершопа');
    expect(answer.partial).toBe(true);
    expect(answer.result.map((s) => s._id)).toEqual(await found('ролика'));
    expect(answer.result.map((s) => s._id)).toEqual([ids.titleHit, ids.descHit]);
    const cheapest = (await search('ролика', { sort: 'price_asc' })).result.map((s) => s._id);
    expect((await search('ролика для барбершопа', { sort: 'price_asc' })).result.map((s) => s._id)).toEqual(cheapest);
    // Without the partial read of several words (the union of each word's matches, its "candidates"), which the
    // search of two words found nowhere together does make.
    const statements = await statementsDuring(database.db, () => search('ролика для барбершопа'));
    expect(statements.filter((text) => text.includes('"candidates"'))).toEqual([]);
    expect((await statementsDuring(database.db, () => search('эмблема сайта'))).filter((text) => text.includes('"candidates"'))).toHaveLength(1);
    expect(statements.filter((text) => text.includes('numnode('))).toHaveLength(1);

    const seen: string[] = [];
    const cursors: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await search('ролика для барбершопа', { limit: '1', ...(cursor ? { cursor } : {}) });
      expect(page.partial).toBe(true);
      seen.push(...page.result.map((s) => s._id));
      cursor = page.next;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    expect(seen).toEqual([ids.titleHit, ids.descHit]);
    expect(cursors.map((c) => (JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as unknown[])[0])).toEqual(['partial:relevance']);
    // A cursor of one read is refused by the other.
    const several = (await search('эмблема сайта', { limit: '1' })).next!;
    for (const [q, wrong] of [
      ['ролика для барбершопа', several],
      ['эмблема сайта', cursors[0]!],
    ] as const) {
      const res = await call(app, 'GET', '/api/services', { query: { q, limit: '1', cursor: wrong } });
      expect(res.status, q).toBe(400);
    }
  });

  it('know the dead words: stop words, and unknown words no service has, whatever its state', async () => {
    const words = ['для', 'барбершопа', 'плагины', 'ролика', 'ыыыыы'];
    // «плагины» is in a description only; «ролика» is not asked about as unknown, so only its stop-wordness is.
    expect([...(await deadWords(database.db, words, ['барбершопа', 'плагины', 'ыыыыы']))].sort()).toEqual(['барбершопа', 'для', 'ыыыыы']);
    await database.db.update(services).set({ status: 'paused' }).where(eq(services.id, ids.wp!));
    try {
      expect(await deadWords(database.db, ['плагины'], ['плагины'])).toEqual(new Set());
    } finally {
      await database.db.update(services).set({ status: 'active' }).where(eq(services.id, ids.wp!));
    }
    expect(await deadWords(database.db, [], [])).toEqual(new Set());
  });

  it('are not offered as suggestions', async () => {
    for (let i = 0; i < MIN_SEARCHES; i++) {
      await call(app, 'GET', '/api/services', { query: { q: 'эмблема сайта' }, remoteAddress: `203.0.113.${i + 1}` });
    }
    await app.services.searchSuggestions.flush();
    expect((await database.db.select().from(searchQueries)).map((r) => r.query)).not.toContain('эмблема сайта');
  });

  it('answer projects the same way', async () => {
    const res = await call<{ title: string }[]>(app, 'GET', '/api/projects', { query: { q: 'логотип кофейни' } });
    expect(res.status).toBe(200);
    expect((res.body as unknown as Listing).partial).toBe(true);
    expect(res.body.result.map((p) => p.title)).toEqual(['Логотип для пекарни']);
  });
});

describe('suggestions', () => {
  it('offers only popular queries that find something now', async () => {
    await database.db
      .insert(searchQueries)
      .values([
        { query: 'сценарий ролика', searches: 50 },
        { query: 'сценарий свадьбы', searches: 80 },
      ])
      .onConflictDoUpdate({ target: searchQueries.query, set: { searches: sql`excluded.searches` } });
    const res = await call<string[]>(app, 'GET', '/api/search/suggestions', { query: { q: 'сценарий' } });
    expect(res.body.result).toEqual(['сценарий ролика']);
  });
});

describe('projects', () => {
  it('are searched with the same synonyms and prefix', async () => {
    const titles = async (q: string) => {
      const res = await call<{ title: string }[]>(app, 'GET', '/api/projects', { query: { q } });
      expect(res.status).toBe(200);
      return res.body.result.map((p) => p.title);
    };
    expect(await titles('телеграм')).toEqual(['Нужен бот в Telegram для записи клиентов']);
    expect(await titles('логот')).toEqual(['Логотип для пекарни']);
  });
});
