import { randomInt } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { FileService } from '../../modules/files/index.ts';
import { FILE_USES } from '../../file-uses.ts';
import type { Storage } from '../../lib/storage.ts';
import { users } from '../../modules/users/schema.ts';
import { favorites } from '../../modules/favorites/schema.ts';
import { projects } from '../../modules/projects/schema.ts';
import { searchQueries } from '../../modules/search/schema.ts';
import { services } from '../../modules/services/schema.ts';
import { recentViews } from '../../modules/services/schema.ts';
import { bids } from '../../modules/bids/schema.ts';
import { settings } from '../../platform/schema.ts';
import { createUser } from '../factories.ts';
import { DEMO_POSTS, seedDemoBlog } from './demo-blog.ts';
import { createProject, createService } from '../catalog-factories.ts';
import { projectRoot } from '../../paths.ts';
import type { UserRow } from '../../modules/users/schema.ts';

export interface DemoAccount {
  email: string;
  password: string;
  role: string;
}

export const DEMO_ACCOUNTS: Omit<DemoAccount, 'password'>[] = [
  { email: 'seller@example.com', role: 'seller' },
  { email: 'customer@example.com', role: 'customer' },
  { email: 'admin@example.com', role: 'admin' },
];

/** Where the demo accounts' password is kept: one per data folder, so no two demos share a known one. */
export const demoPasswordFile = (dataDir: string) => path.join(dataDir, 'demo-password');

/**
 * The demo accounts of a database seeded before (a restart, or a first start seeded by its `--prepare` process): their
 * password from the data folder, when the folder has one and the demo's users are there; null otherwise.
 */
export async function seededDemoAccounts(db: Db, dataDir: string): Promise<DemoAccount[] | null> {
  let password: string;
  try {
    password = readFileSync(demoPasswordFile(dataDir), 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const emails = DEMO_ACCOUNTS.map((a) => a.email);
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(users).where(inArray(sql`lower(${users.email})`, emails))) as [{ count: number }];
  return count === emails.length ? DEMO_ACCOUNTS.map((a) => ({ ...a, password })) : null;
}

// Letters and digits that cannot be mistaken for one another when copied from a terminal.
const PASSWORD_LETTERS = 'abcdefghjkmnpqrstuvwxyz';
const PASSWORD_DIGITS = '23456789';

/** A random password of 12 characters (about 58 bits) with letters and digits, as the password rules want. */
export function newDemoPassword(): string {
  const alphabet = PASSWORD_LETTERS + PASSWORD_DIGITS;
  const chars = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]!);
  chars.splice(randomInt(chars.length + 1), 0, PASSWORD_LETTERS[randomInt(PASSWORD_LETTERS.length)]!);
  chars.splice(randomInt(chars.length + 1), 0, PASSWORD_DIGITS[randomInt(PASSWORD_DIGITS.length)]!);
  return chars.join('');
}

/** The demo accounts' password of this data folder: generated once and kept there (like DATA_DIR/jwt-secret). */
export function demoPassword(dataDir: string): string {
  const file = demoPasswordFile(dataDir);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const password = newDemoPassword();
  try {
    // 'wx': of two instances starting on one folder, the first one's password stays.
    writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
    return password;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFileSync(file, 'utf8').trim();
  }
}

const SELLERS: [string, string, string, string][] = [
  ['anna_design', 'Анна', 'Соколова', 'Дизайнер логотипов и фирменного стиля, 8 лет опыта.'],
  ['dmitry_dev', 'Дмитрий', 'Кузнецов', 'Full-stack разработчик: сайты на React и Node.js, Telegram-боты.'],
  ['olga_texts', 'Ольга', 'Морозова', 'Копирайтер и редактор, тексты для сайтов и соцсетей.'],
  ['ivan_seo', 'Иван', 'Лебедев', 'SEO-специалист: аудит, семантическое ядро, продвижение.'],
  ['maria_smm', 'Мария', 'Волкова', 'Веду соцсети брендов: контент-план, таргет, аналитика.'],
];
// [seller index, category, sub-category, title, price in rubles, days, tags, covers]
// Covers: pictures in ./covers (<name>.jpg, 800×600), the first one is the card's cover. They are drawn by
// scripts/make-demo-covers.ts; run it again after adding or renaming one here.
export const DEMO_SERVICES: [number, string, string | null, string, number, number, string[], string[]][] = [
  [0, 'design', 'logo-design', 'Создам современный логотип для кофейни, магазина или салона', 1500, 3, ['логотип', 'фирменный стиль'], ['logo-1', 'logo-2', 'logo-3']],
  [0, 'design', 'brand-identity', 'Разработаю фирменный стиль: логотип, цвета, шрифты', 7000, 7, ['фирменный стиль', 'брендбук'], ['brand-1', 'brand-2', 'brand-3']],
  [0, 'design', 'banners-icons', 'Нарисую иконки для приложения в едином стиле', 2500, 4, ['иконки', 'figma'], ['icons-1', 'icons-2']],
  [1, 'development', 'landing-pages', 'Сверстаю лендинг по вашему макету из Figma', 5000, 5, ['лендинг', 'вёрстка', 'figma'], ['landing-1', 'landing-2', 'landing-3']],
  [1, 'development', null, 'Сделаю Telegram-бота для приёма заказов', 8000, 7, ['telegram-бот'], ['bot-1', 'bot-2']],
  [1, 'development', 'website-fixes', 'Доработаю сайт на WordPress: правки и плагины', 1500, 2, ['wordpress'], ['wordpress-1', 'wordpress-2']],
  [2, 'texts-translations', null, 'Напишу продающий текст для лендинга', 2000, 2, ['копирайтинг', 'лендинг'], ['copy-1', 'copy-2']],
  [2, 'texts-translations', null, 'Отредактирую и вычитаю текст до 10 000 знаков', 800, 1, ['редактура'], ['proofreading-1']],
  [2, 'texts-translations', null, 'Переведу текст с английского на русский', 1200, 2, ['перевод'], ['translation-1', 'translation-2']],
  [3, 'seo-traffic', null, 'Проведу SEO-аудит сайта с рекомендациями', 4000, 5, ['seo-аудит'], ['seo-audit-1', 'seo-audit-2', 'seo-audit-3']],
  [3, 'seo-traffic', null, 'Соберу семантическое ядро для интернет-магазина', 3500, 4, ['семантическое ядро'], ['semantic-1', 'semantic-2']],
  [4, 'smm-marketing', null, 'Составлю контент-план для соцсетей на месяц', 3000, 3, ['контент-план', 'smm'], ['content-plan-1', 'content-plan-2']],
  [4, 'smm-marketing', null, 'Настрою таргетированную рекламу ВКонтакте', 6000, 5, ['таргет', 'вконтакте'], ['target-1', 'target-2', 'target-3']],
  [5, 'design', 'presentation-design', 'Оформлю презентацию в PowerPoint или Google Slides', 2000, 2, ['презентация'], ['presentation-1', 'presentation-2']],
];

/** The demo services' pictures, committed with the code (not needed by anything but the seed). */
export const DEMO_COVERS_DIR = path.join(projectRoot, 'server', 'db', 'seed', 'covers');
export const demoCoverPath = (name: string) => path.join(DEMO_COVERS_DIR, `${name}.jpg`);

const DEMO_PROJECTS: [number, string, string, string, number | null, number | null][] = [
  [0, 'development', 'Нужен сайт-визитка для кофейни', 'Нужен простой сайт: меню, фотографии зала, контакты и карта. Есть логотип и фотографии.', 25000, 14],
  [1, 'design', 'Логотип для семейной пекарни', 'Ищу дизайнера для логотипа пекарни «Тёплый хлеб». Нужны три варианта и исходники.', 8000, 7],
  [2, 'texts-translations', 'Тексты для карточек товаров на маркетплейсе', 'Нужно 30 описаний товаров для Wildberries, 800–1000 знаков каждое, с ключевыми словами.', 12000, 10],
  [0, 'seo-traffic', 'Продвижение интернет-магазина сантехники', 'Ищем специалиста для SEO-продвижения магазина в Яндексе, нужен план работ на 3 месяца.', null, 90],
];

const CUSTOMERS: [string, string, string][] = [
  ['sergey_shop', 'Сергей', 'Попов'],
  ['ekaterina_cafe', 'Екатерина', 'Новикова'],
  ['pavel_startup', 'Павел', 'Козлов'],
];

/** Popular searches of the demo (normalised as SearchSuggestions keeps them), with how often they were made. */
const DEMO_SEARCHES: [string, number][] = [
  ['логотип', 120],
  ['лендинг', 95],
  ['презентация', 70],
  ['сайт под ключ', 64],
  ['seo аудит', 52],
  ['контент план', 41],
  ['таргетированная реклама', 38],
  ['логотип для кофейни', 21],
  ['текст для лендинга', 17],
];

/**
 * Demo data for a fresh database: only when SEED_DEMO is on and nobody has registered yet. The services'
 * pictures are uploaded by their sellers the way the files API does it (`storage`: where uploads live).
 * Every demo user, the printed ones and the others, gets the password `passwordOf` gives (demoPassword(): one
 * per data folder), asked only when the seed runs.
 */
/** Packages Эконом / Стандарт / Бизнес and two extras around a service's base price (kopecks) and days. */
function demoOptions(rubles: number, days: number) {
  const rounded = (x: number) => Math.round(x / 100) * 100 * 100;
  return {
    packages: [
      { kind: 'economy' as const, price: rubles * 100, days, revisions: 1, description: 'Базовый объём работ, одна правка' },
      { kind: 'standard' as const, price: rounded(rubles * 1.8), days: days + 2, revisions: 3, description: 'Расширенный объём и исходники' },
      { kind: 'business' as const, price: rounded(rubles * 3), days: days + 5, revisions: 5, description: 'Полный комплект под ключ' },
    ],
    extras: [
      { title: 'Срочное выполнение', price: rounded(rubles * 0.5), days: 0 },
      { title: 'Дополнительный вариант', price: rounded(rubles * 0.4), days: 1 },
    ],
  };
}

/** Rubles per unit, roughly the market's in 2026. */
const DEMO_FALLBACK_RATES = { 'rates.fallbackUSDT': 95, 'rates.fallbackBTC': 9_000_000 } as const;

export async function seedDemo(db: Db, storage: Storage, passwordOf: () => string): Promise<DemoAccount[] | null> {
  const [{ count }] = (await db.select({ count: sql<number>`count(*)::int` }).from(users)) as [{ count: number }];
  if (count > 0) return null;
  const password = passwordOf();
  // A missing picture fails before anything is written: a half-seeded database would never be seeded again.
  await Promise.all([...DEMO_SERVICES.flatMap(([, , , , , , , covers]) => covers), ...DEMO_POSTS.map((p) => p.cover)].map((name) => access(demoCoverPath(name))));
  // Their variants are queued by the app once it runs (FileService.makeAllVariants).
  const uploads = new FileService(db, storage, { uses: FILE_USES, makeVariants: false });
  const accounts = DEMO_ACCOUNTS.map((a) => ({ ...a, password }));
  const [seller, customer, admin] = accounts as [DemoAccount, DemoAccount, DemoAccount];

  await createUser(db, { email: seller.email, password, userName: 'demo_seller', name: 'Алексей', surname: 'Смирнов', role: 'seller',
    about: 'Веб-дизайнер и верстальщик. Делаю лендинги и интернет-магазины под ключ.' });
  await createUser(db, { email: customer.email, password, userName: 'demo_customer', name: 'Татьяна', surname: 'Иванова', role: 'customer' });
  const adminRow = await createUser(db, { email: admin.email, password, userName: 'demo_admin', name: 'Михаил', surname: 'Администратор', role: 'admin', twoFactor: false });
  const sellers: UserRow[] = [];
  for (const [userName, name, surname, about] of SELLERS) {
    sellers.push(await createUser(db, { email: `${userName}@example.com`, password, userName, name, surname, about, role: 'seller' }));
  }
  const customers: UserRow[] = [];
  for (const [userName, name, surname] of CUSTOMERS) {
    customers.push(await createUser(db, { email: `${userName}@example.com`, password, userName, name, surname, role: 'customer' }));
  }
  const demoSeller = (await db.select().from(users).where(sql`${users.email} = ${seller.email}`))[0]!;
  const owners = [...sellers, demoSeller];
  for (const [i, category, sub, title, rubles, days, tags, covers] of DEMO_SERVICES) {
    const sellerId = owners[i % owners.length]!.id;
    const images = await Promise.all(
      covers.map(async (name) => (await uploads.upload(sellerId, { filename: `${name}.jpg`, file: createReadStream(demoCoverPath(name)) })).url),
    );
    await createService(db, sellerId, {
      category,
      sub,
      title,
      images,
      description: `${title}. Работаю по договорённости, вношу правки до полного согласования. Перед началом уточню задачу и пришлю план работ. Сдаю в срок, исходники передаю вместе с результатом.`,
      price: rubles * 100,
      days,
      tags,
      // Every other service offers three packages and two extras, so the order form has choices to show.
      ...(i % 2 === 0 ? demoOptions(rubles, days) : {}),
      views: 20 + ((i * 37) % 200),
      popularity: 20 + ((i * 37) % 200),
    });
  }
  const projectIds: string[] = [];
  for (const [i, category, title, description, budget, days] of DEMO_PROJECTS) {
    projectIds.push((await createProject(db, customers[i % customers.length]!.id, { category, title, description, budget: budget && budget * 100, days })).id);
  }
  await seedDemoBids(db, demoSeller, customer.email, sellers, projectIds);
  await seedDemoShortlist(db, customer.email);
  // Searches as if people had made them, so the header's suggestions have something to offer at once.
  await db.insert(searchQueries).values(DEMO_SEARCHES.map(([query, searches]) => ({ query, searches })));
  // A demo often runs offline: fallback rates (an operator setting) let it show and take USDT and BTC at once; the
  // rates service's own rates replace them when it answers.
  await db.insert(settings).values(Object.entries(DEMO_FALLBACK_RATES).map(([key, value]) => ({ key, value }))).onConflictDoNothing();
  // The demo's admin signs in with the published demo password alone (ADR 054): the operator setting that asks
  // admins for a second factor is off in a demo, and on (its default) in every other deployment.
  await db.insert(settings).values({ key: 'twoFactor.admins', value: false }).onConflictDoNothing();
  // The blog (ADR 037): three published articles and a draft.
  await seedDemoBlog(db, uploads, adminRow, demoCoverPath);
  return accounts;
}

/** The demo customer's home page (issue 15): three services opened lately and two saved. */
async function seedDemoShortlist(db: Db, customerEmail: string) {
  const [buyer] = await db.select().from(users).where(sql`${users.email} = ${customerEmail}`);
  const picks = await db.select({ id: services.id }).from(services).orderBy(services.createdAt, services.id).limit(5);
  const now = Date.now();
  await db.insert(recentViews).values(picks.slice(0, 3).map((s, i) => ({ userId: buyer!.id, serviceId: s.id, viewedAt: new Date(now - i * 3_600_000) })));
  await db.insert(favorites).values(picks.slice(3).map((s) => ({ userId: buyer!.id, type: 'service' as const, itemId: s.id })));
}

/**
 * Bids (issue 12): the demo customer's project with three bids waiting (their bids flag up), and the demo seller's
 * bids on two projects of other customers, so /profile/bids and the project page show the exchange at once.
 */
async function seedDemoBids(db: Db, demoSeller: UserRow, customerEmail: string, sellers: UserRow[], projectIds: string[]) {
  const demoCustomer = (await db.select().from(users).where(sql`${users.email} = ${customerEmail}`))[0]!;
  const project = await createProject(db, demoCustomer.id, {
    category: 'development',
    title: 'Интернет-магазин косметики на Tilda',
    description: 'Нужен магазин на Tilda: каталог на 60 товаров, корзина, оплата картой, доставка СДЭК. Дизайн-макет есть в Figma.',
    budget: 6_000_000,
    days: 21,
    createdAt: new Date(Date.now() - 5 * 60 * 60_000),
  });
  const offers: [number, number, string][] = [
    [5_500_000, 18, 'Соберу магазин на Tilda по вашему макету: каталог, корзина, оплата и СДЭК. Сделал больше 40 магазинов, примеры в профиле.'],
    [4_800_000, 21, 'Добрый день! Сверстаю по макету, настрою оплату и доставку, перенесу товары из таблицы. Работаю по этапам с отчётами.'],
    [6_000_000, 14, 'Сделаю за две недели: у меня готовые блоки для каталога и фильтров на Tilda. Покажу промежуточный результат через 5 дней.'],
  ];
  const now = Date.now();
  await db.insert(bids).values(
    offers.map(([price, days, comment], i) => ({
      projectId: project.id,
      sellerId: sellers[i % sellers.length]!.id,
      price,
      days,
      comment,
      createdAt: new Date(now - (offers.length - i) * 45 * 60_000),
      updatedAt: new Date(now - (offers.length - i) * 45 * 60_000),
    })),
  );
  await db.update(projects).set({ bidsCount: offers.length }).where(sql`${projects.id} = ${project.id}`);
  await db.update(users).set({ bidsUnread: true }).where(sql`${users.id} = ${demoCustomer.id}`);

  const comment = 'Здравствуйте! Сделаю аккуратно и в срок, опыт больше пяти лет, похожие работы — в моём профиле. Готов начать сегодня.';
  for (const [i, projectId] of projectIds.slice(0, 2).entries()) {
    await db.insert(bids).values({ projectId, sellerId: demoSeller.id, price: [2_200_000, 750_000][i]!, days: [10, 5][i]!, comment });
    await db.update(projects).set({ bidsCount: sql`${projects.bidsCount} + 1` }).where(sql`${projects.id} = ${projectId}`);
  }
}
