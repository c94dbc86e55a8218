import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { testEnv } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createUser } from '../../db/factories.ts';
import { createService } from '../../db/catalog-factories.ts';
import { DEMO_SERVICES } from '../../db/seed/demo.ts';
import { categories as referenceCategories } from '../../db/reference/categories.ts';
import { OBJECTS, QUALIFIERS, VERBS } from '../../../bench/generate-services.ts';
import { call } from '../../test/api.ts';

// The relevance test set of the search (ADR 028): queries people type — words, word forms, prefixes, Russian
// spellings of brands, typos, category words — over the demo catalogue, twenty more hand-written services and
// 300 services composed like the benchmark's (bench/generate-services.ts). Each query names the services that
// must come first: a list of keys, or a rule when many services deserve it equally (every logo for "лого").
// The suite prints recall@10 and MRR and fails below the thresholds recorded in the ADR.

/** Recorded in ADR 028. When the set was written both were 1.000 on PGlite and PostgreSQL (the test prints them). */
const MIN_RECALL_AT_10 = 0.9;
const MIN_MRR = 0.9;

interface Doc {
  key: string;
  title: string;
  tags: string[];
  category: string;
  sub: string | null;
  text: string;
}

const EXTRA: [string, string, string | null, string, string[]][] = [
  ['tilda', 'development', 'website-development', 'Соберу интернет-магазин на Tilda', ['tilda', 'интернет-магазин']],
  ['youtube', 'audio-video', 'video-editing', 'Смонтирую ролик для YouTube-канала', ['youtube', 'монтаж']],
  ['photoshop', 'photo-3d', 'photo-retouching', 'Обработаю портреты в Photoshop', ['photoshop', 'ретушь']],
  ['python', 'development', 'scripts-parsers', 'Напишу скрипт на Python для выгрузки данных', ['python', 'автоматизация']],
  ['direct', 'seo-traffic', 'context-ads', 'Запущу рекламу в Яндекс Директ', ['яндекс директ', 'контекст']],
  ['wb', 'design', 'marketplace-cards', 'Оформлю карточки товаров для Wildberries', ['wildberries', 'инфографика']],
  ['bitrix', 'administration-support', 'crm-setup', 'Внедрю CRM Битрикс24 в отдел продаж', ['bitrix24', 'crm']],
  ['excel', 'administration-support', 'data-entry', 'Сведу отчёты в Excel с формулами и графиками', ['excel', 'таблицы']],
  ['gpt', 'ai-neural-networks', 'ai-integration', 'Подключу ChatGPT к вашему сайту', ['chatgpt', 'нейросеть']],
  ['insta', 'smm-marketing', 'community-management', 'Буду вести Instagram вашего бренда', ['instagram', 'ведение']],
  ['uidesign', 'design', 'web-design', 'Спроектирую интерфейс мобильного приложения в Figma', ['figma', 'ui/ux']],
  ['ege', 'education', 'exam-preparation', 'Подготовлю к ЕГЭ по математике', ['егэ', 'математика']],
  ['contract', 'accounting-legal', 'contracts', 'Составлю договор оказания услуг', ['договор', 'юрист']],
  ['ooo', 'accounting-legal', 'company-registration', 'Зарегистрирую ООО под ключ', ['регистрация']],
  ['voice', 'audio-video', 'voice-over', 'Запишу озвучку мужским голосом', ['озвучка', 'диктор']],
  ['book', 'design', 'illustration', 'Нарисую иллюстрации для детской книги', ['иллюстрация', 'книга']],
  ['pack', 'design', 'packaging-design', 'Разработаю этикетку для банки мёда', ['этикетка', 'упаковка']],
  ['print3d', 'photo-3d', 'three-d-printing', 'Смоделирую деталь для 3D-печати', ['3d-печать', 'моделирование']],
  ['rn', 'development', 'mobile-apps', 'Напишу мобильное приложение на React Native', ['react', 'ios', 'android']],
  ['site-en', 'texts-translations', 'translations', 'Переведу сайт на английский язык', ['перевод', 'английский']],
];
const DEMO_KEYS = ['logo', 'brand', 'icons', 'landing', 'bot', 'wp', 'copy', 'proof', 'translate', 'seoaudit', 'semantic', 'contentplan', 'target', 'slides'];

type Relevant = string[] | ((d: Doc) => boolean);
const says = (...stems: string[]) => (d: Doc) => stems.every((s) => d.text.includes(s));
const inCategory = (slug: string) => (d: Doc) => d.category === slug;

/** [query, the services that must come first]. */
const CASES: [string, Relevant][] = [
  // The queries.
  ['дизайн', (d) => d.category === 'design' || d.text.includes('дизайн')],
  ['логотип для кофейни', says('логотип', 'кофейн')],
  ['телеграм', (d) => /telegram|телеграм/.test(d.text)],
  ['вордпресс', says('wordpress')],
  ['сео', (d) => d.text.includes('seo')],
  ['лого', says('логотип')],
  // Words and word forms.
  ['логотипа', says('логотип')],
  ['фирменный стиль', says('фирменный стиль')],
  ['брендбук', ['brand']],
  ['иконки для приложения', ['icons']],
  ['лендинг по макету', ['landing']],
  ['вёрстка', ['landing']],
  ['верстка лендинга', ['landing']],
  ['бот для приёма заказов', ['bot']],
  ['плагины wordpress', ['wp']],
  ['продающий текст', ['copy']],
  ['вычитка текста', ['proof']],
  ['редактура', says('редактур')],
  ['перевод с английского', ['translate', 'site-en']],
  ['семантическое ядро интернет-магазина', (d) => d.text.includes('семантическое ядро') && d.text.includes('интернет-магазин')],
  ['контент план соцсети', (d) => d.text.includes('контент-план')],
  ['таргетированная реклама вконтакте', ['target']],
  ['презентация powerpoint', ['slides']],
  ['seo аудит сайта', says('seo', 'аудит', 'сайт')],
  ['договор оказания услуг', ['contract']],
  ['регистрация ооо', says('регистрац', 'ооо')],
  ['озвучка мужским голосом', ['voice']],
  ['иллюстрации детская книга', ['book']],
  ['этикетка для мёда', ['pack']],
  ['3d печать', ['print3d']],
  ['мобильное приложение react native', ['rn']],
  ['подготовка к егэ', says('подготов', 'егэ')],
  ['перевести сайт на английский', ['site-en']],
  ['карточки товаров', ['wb']],
  ['интернет-магазин на tilda', ['tilda']],
  // As typed so far.
  ['презент', says('презентац')],
  ['семант', says('семантическ')],
  ['брендб', ['brand']],
  ['редакт', says('редакт')],
  ['иллюстр', ['book']],
  ['озвуч', ['voice']],
  ['таргетированную рек', says('таргетированн', 'реклам')],
  // Russian spellings and abbreviations (the synonym dictionary).
  ['фигма', (d) => d.text.includes('figma')],
  ['тильда', ['tilda']],
  ['ютуб', ['youtube']],
  ['фотошоп', ['photoshop']],
  ['питон', ['python']],
  ['яндекс директ', ['direct']],
  ['вайлдберриз', ['wb']],
  ['битрикс', ['bitrix']],
  ['эксель', ['excel']],
  ['чатгпт', ['gpt']],
  ['инстаграм', ['insta']],
  ['вк реклама', ['target']],
  ['смм', (d) => d.text.includes('smm')],
  ['реакт', ['rn']],
  // Typos: found through the corrected query.
  ['лготип', says('логотип')],
  ['презентацыя', says('презентац')],
  ['брендбкук', ['brand']],
  ['иллюстрацыи', ['book']],
  ['озвучкка', ['voice']],
  ['семантичесое ядро', says('семантическое ядро')],
  ['копирайтенг', (d) => d.text.includes('копирайтинг')],
  // Category and sub-category words.
  ['маркетплейсы', (d) => d.text.includes('маркетплейс')],
  ['бухгалтерия', inCategory('accounting-legal')],
  ['юристы', (d) => d.category === 'accounting-legal' || d.text.includes('юрист')],
  ['3d визуализация', (d) => d.text.includes('3d-визуализац')],
  // Issue 25: found nothing on the demo catalogue, which has no business card (here the typo correction finds one).
  ['дизайн визиток', (d) => d.category === 'design' && d.text.includes('визитк')],
];

/**
 * Searches no service matches with every word (issue 25: they found nothing): answered with the services matching
 * the most of them, marked `partial` (ADR 044). Counted in the suite's figures too.
 */
const PARTIAL_CASES: [string, Relevant][] = [
  ['excel макросы', ['excel']],
  ['чат-бот для барбершопа', says('чат-бот')],
  ['логотип и визитки кофейни', says('логотип', 'кофейн')],
  ['фотошоп баннер', (d) => d.text.includes('photoshop') || d.text.includes('баннер')],
  ['договор аренды квартиры', says('договор')],
  ['ретушь свадебных фото', says('ретушь', 'фото')],
  ['егэ по химии', says('егэ')],
  ['этикетка крафт', ['pack']],
  ['иллюстрации комикс', ['book']],
];
CASES.push(...PARTIAL_CASES);

/** A small deterministic random (mulberry32), so the generated services are the same in every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: FastifyInstance;
const docs = new Map<string, Doc>();

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ env: testEnv(), database, logger: pino({ level: 'silent' }), web: false });
  await app.ready();
  const seller = await createUser(database.db, { role: 'seller' });
  const titleOf = (slug: string) => referenceCategories.find((c) => c.slug === slug)!;
  const add = async (key: string, category: string, sub: string | null, title: string, tags: string[], description: string, popularity: number) => {
    const row = await createService(database.db, seller.id, { category, sub, title, tags, description, popularity });
    const cat = titleOf(category);
    const subTitle = sub ? cat.subs.find((s) => s.slug === sub)!.title : '';
    const text = [title, tags.join(' '), cat.title, subTitle].join(' ').toLowerCase().replaceAll('ё', 'е');
    docs.set(row.id, { key, title, tags, category, sub, text });
  };
  for (const [i, [, category, sub, title, , , tags]] of DEMO_SERVICES.entries()) {
    await add(DEMO_KEYS[i]!, category, sub, title, tags, `${title}. Работаю по договорённости, вношу правки до полного согласования.`, 20 + ((i * 37) % 200));
  }
  for (const [key, category, sub, title, tags] of EXTRA) await add(key, category, sub, title, tags, `${title}. Сдаю в срок, правки включены.`, 50);
  const rand = random(15);
  const pick = <T,>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const slugs = Object.keys(OBJECTS);
  for (let i = 0; i < 300; i++) {
    const category = pick(slugs);
    const sub = pick(titleOf(category).subs).slug;
    const title = `${pick(VERBS)} ${pick(OBJECTS[category]!)} ${pick(QUALIFIERS)}`;
    await add(`gen${i}`, category, sub, title, [], `Опыт работы более пяти лет. ${title}. Пишите, обсудим детали!`, Math.floor(rand() ** 2 * 400));
  }
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('search relevance', () => {
  it(`${CASES.length} queries: recall@10 ≥ ${MIN_RECALL_AT_10}, MRR ≥ ${MIN_MRR}`, async () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    const all = [...docs.entries()];
    let recallSum = 0;
    let rrSum = 0;
    const misses: string[] = [];
    for (const [q, relevant] of CASES) {
      const wanted = new Set(
        all.filter(([, d]) => (Array.isArray(relevant) ? relevant.includes(d.key) : relevant(d))).map(([id]) => id),
      );
      expect(wanted.size, `«${q}» names no service of the set`).toBeGreaterThan(0);
      const res = await call<{ _id: string }[]>(app, 'GET', '/api/services', { query: { q, limit: '10' } });
      expect(res.status).toBe(200);
      const top = res.body.result.map((s) => s._id);
      const hits = top.filter((id) => wanted.has(id)).length;
      const recall = hits / Math.min(10, wanted.size);
      const first = top.findIndex((id) => wanted.has(id));
      const rr = first === -1 ? 0 : 1 / (first + 1);
      recallSum += recall;
      rrSum += rr;
      if (recall < 1 || rr < 1) misses.push(`  «${q}»: recall@10 ${recall.toFixed(2)}, first relevant at ${first === -1 ? '—' : first + 1} (${top.map((id) => docs.get(id)!.key).join(' ')})`);
    }
    const recall = recallSum / CASES.length;
    const mrr = rrSum / CASES.length;
    console.log(`search relevance (${database.kind}): ${CASES.length} queries, ${docs.size} services: recall@10 ${recall.toFixed(3)}, MRR ${mrr.toFixed(3)}`);
    if (misses.length) console.log(`not perfect:\n${misses.join('\n')}`);
    expect(recall).toBeGreaterThanOrEqual(MIN_RECALL_AT_10);
    expect(mrr).toBeGreaterThanOrEqual(MIN_MRR);
  });

  it('answers a search no service matches with every word with those matching the most of them', async () => {
    for (const [q, relevant] of PARTIAL_CASES) {
      const res = await call<{ _id: string }[]>(app, 'GET', '/api/services', { query: { q, limit: '10' } });
      const body = res.body as unknown as { partial?: boolean; total: number };
      const top = res.body.result.map((s) => docs.get(s._id)!);
      expect(top.length, `«${q}»`).toBeGreaterThan(0);
      expect(body.partial, `«${q}»`).toBe(true);
      expect(body.total, `«${q}»`).toBeGreaterThanOrEqual(top.length);
      const first = top[0]!;
      expect(
        Array.isArray(relevant) ? relevant.includes(first.key) : relevant(first),
        `«${q}»: ${top.map((d) => d.key).join(' ')}`,
      ).toBe(true);
    }
  });
});
