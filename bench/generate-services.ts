/**
 * Catalog benchmark data: a PostgreSQL database `podryad_bench_<N>` with the real schema (migrations and
 * reference data as the server makes them), a few thousand sellers and N services whose Russian titles,
 * descriptions and tags are composed in SQL from word lists (INSERT … SELECT … FROM generate_series, in
 * batches), then ANALYZE. A database that already holds a complete set of N services is reused.
 *
 * Alone: `BENCH_SERVICES=100000 DATABASE_URL=postgres://… node --import tsx bench/generate-services.ts`.
 */
import pg from 'pg';
import { openPostgres } from '../server/db/client.ts';
import { seedReference } from '../server/db/seed/reference.ts';
import { buildUser } from '../server/db/factories.ts';
import { users } from '../server/modules/users/schema.ts';
import { tags as referenceTags } from '../server/db/reference/tags.ts';

export const VERBS = ['Создам', 'Сделаю', 'Напишу', 'Настрою', 'Разработаю', 'Нарисую', 'Подготовлю', 'Оформлю', 'Доработаю', 'Смонтирую'];

/** What is offered, per category (accusative, so that "Создам логотип" reads), six each. */
export const OBJECTS: Record<string, string[]> = {
  design: ['логотип', 'фирменный стиль', 'баннер', 'презентацию', 'визитку', 'дизайн упаковки'],
  development: ['лендинг', 'сайт', 'интернет-магазин', 'телеграм-бота', 'парсер', 'мобильное приложение'],
  'texts-translations': ['текст', 'статью', 'описание товаров', 'перевод сайта', 'сценарий', 'коммерческое предложение'],
  'seo-traffic': ['SEO-аудит', 'семантическое ядро', 'контекстную рекламу', 'продвижение сайта', 'ссылочную массу', 'аналитику'],
  'smm-marketing': ['контент-план', 'таргетированную рекламу', 'оформление группы', 'посты для соцсетей', 'рассылку', 'стратегию продвижения'],
  'audio-video': ['видеоролик', 'монтаж видео', 'озвучку', 'анимацию', 'джингл', 'заставку для канала'],
  'business-life': ['бизнес-план', 'поиск поставщиков', 'маркетинговое исследование', 'таблицу учёта', 'резюме', 'финансовую модель'],
  education: ['урок английского', 'курсовую консультацию', 'подготовку к ЕГЭ', 'онлайн-курс', 'тест', 'методичку'],
  'architecture-engineering': ['чертёж', 'дизайн интерьера', '3D-визуализацию', 'план квартиры', 'проект дома', 'смету'],
  'accounting-legal': ['договор', 'декларацию', 'бухгалтерский учёт', 'регистрацию ООО', 'претензию', 'консультацию юриста'],
  'administration-support': ['настройку CRM', 'ввод данных', 'поиск информации', 'таблицу Excel', 'поддержку сайта', 'резервное копирование'],
  'photo-3d': ['ретушь фото', '3D-модель', 'обработку фотографий', 'предметную съёмку', 'коллаж', 'фотомонтаж'],
  'ai-neural-networks': ['чат-бота на нейросети', 'промпты', 'генерацию изображений', 'обучение модели', 'ИИ-ассистента', 'нейрофотосессию'],
};
const FALLBACK_OBJECTS = ['логотип', 'лендинг', 'сайт', 'текст', 'презентацию', 'бота'];

export const QUALIFIERS = [
  'для кофейни', 'для интернет-магазина', 'под ключ', 'за 24 часа', 'для малого бизнеса', 'в едином стиле',
  'на Tilda', 'на WordPress', 'для маркетплейса', 'для салона красоты', 'для стартапа', 'качественно и быстро',
  'для ресторана', 'для строительной компании', 'с правками до результата', 'в современном стиле', 'для блога', 'для школы',
];
const OPENINGS = [
  'Здравствуйте!', 'Добрый день!', 'Опыт работы более пяти лет.', 'Работаю быстро и аккуратно.', 'Более 300 выполненных заказов.',
];
const MIDDLES = [
  'Изучу вашу нишу и конкурентов, предложу несколько вариантов.', 'Сделаю всё по техническому заданию и в срок.',
  'Учитываю пожелания, вношу правки до полного согласования.', 'Передам исходники и все права на результат.',
  'Работаю по договору, возможна оплата частями.', 'Подберу решение под ваш бюджет и задачи.',
  'Покажу промежуточный результат уже на следующий день.', 'Сделаю адаптивно: телефоны, планшеты, компьютеры.',
];
const CLOSINGS = [
  'Пишите, обсудим детали!', 'Отвечу на вопросы в течение часа.', 'Гарантирую результат.', 'Жду ваших заказов.',
  'Примеры работ в портфолио.', 'Перед заказом напишите мне в личные сообщения.',
];

export interface BenchDatabase {
  url: string;
  name: string;
  services: number;
  sellers: number;
  /** False when an existing complete database was reused. */
  generated: boolean;
  seconds: number;
}

const log = (message: string) => console.error(message);

/** The URL of another database on the same server. */
function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Ensures `podryad_bench_<n>` holds n generated services (regenerating when asked or incomplete). */
export async function ensureBenchDatabase(adminUrl: string, n: number, opts: { regenerate?: boolean } = {}): Promise<BenchDatabase> {
  const name = `podryad_bench_${n}`;
  const url = databaseUrl(adminUrl, name);
  const started = performance.now();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (exists && !opts.regenerate) {
      const existing = await completeDatabase(url, n);
      if (existing) return { url, name, ...existing, generated: false, seconds: (performance.now() - started) / 1000 };
      log(`${name} exists but is incomplete: regenerating`);
    }
    if (exists) await admin.query(`drop database ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const sellers = await generate(url, n);
  return { url, name, services: n, sellers, generated: true, seconds: (performance.now() - started) / 1000 };
}

/** The bench_meta row written at the end of a generation, if the database is complete for n services. */
async function completeDatabase(url: string, n: number): Promise<{ services: number; sellers: number } | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const meta = await client.query<{ services: number; sellers: number }>('select services, sellers from bench_meta').catch(() => null);
    const row = meta?.rows[0];
    if (!row || row.services !== n) return null;
    const { rows } = await client.query<{ n: string }>('select count(*) as n from services');
    return Number(rows[0]!.n) === n ? row : null;
  } finally {
    await client.end();
  }
}

async function generate(url: string, n: number): Promise<number> {
  // The server's own migrations and reference data, so the schema and indexes are exactly the app's.
  const database = openPostgres(url, 2);
  await database.migrate();
  await seedReference(database.db);

  const sellerCount = Math.min(5000, Math.max(2000, Math.round(n / 200)));
  log(`generating ${sellerCount} sellers…`);
  const built = [];
  for (let i = 0; i < sellerCount; i++) {
    const completedOrders = Math.floor(Math.random() ** 3 * 200);
    built.push(
      await buildUser({
        role: 'seller',
        completedOrders,
        rating: completedOrders ? 400 + Math.floor(Math.random() * 101) : 0,
        reviewsCount: Math.floor(completedOrders * 0.7),
        lastSeenAt: new Date(Date.now() - Math.random() * 30 * 86_400_000),
      }),
    );
  }
  for (let i = 0; i < built.length; i += 1000) await database.db.insert(users).values(built.slice(i, i + 1000));
  await database.close();

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sellerIds = (await client.query<{ id: string }>(`select id from users where 'seller' = any(roles)`)).rows.map((r) => r.id);
    const subs = (
      await client.query<{ sub_id: string; cat_id: string; slug: string }>(
        'select s.id as sub_id, c.id as cat_id, c.slug from sub_categories s join categories c on c.id = s.category_id order by c.slug, s.slug',
      )
    ).rows;
    const slugs = [...new Set(subs.map((s) => s.slug))];
    // A rectangular text[][] (one row of six objects per category), indexed by the category's position.
    const objects = slugs.map((slug) => OBJECTS[slug] ?? FALLBACK_OBJECTS);

    await client.query(`set maintenance_work_mem = '512MB'`);
    // Build the secondary indexes once at the end, not row by row (several times faster at a million rows).
    const indexes = (
      await client.query<{ indexname: string; indexdef: string }>(
        `select i.indexname, i.indexdef from pg_indexes i
          where i.tablename = 'services' and i.schemaname = current_schema()
            and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      )
    ).rows;
    for (const index of indexes) await client.query(`drop index ${index.indexname}`);
    // The rows are consistent by construction: skip the per-row foreign-key triggers where allowed (superuser).
    await client.query(`set session_replication_role = replica`).catch(() => log('(not a superuser: keeping foreign-key checks)'));

    const batch = 50_000;
    const params = [
      VERBS, objects, QUALIFIERS, OPENINGS, MIDDLES, CLOSINGS, referenceTags, sellerIds,
      subs.map((s) => s.sub_id), subs.map((s) => s.cat_id), subs.map((s) => slugs.indexOf(s.slug) + 1),
    ];
    for (let from = 1; from <= n; from += batch) {
      const to = Math.min(n, from + batch - 1);
      const t = performance.now();
      await client.query(insertSql, [...params, from, to]);
      log(`  services ${to.toLocaleString('en-US')} / ${n.toLocaleString('en-US')} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
    await client.query(`set session_replication_role = origin`).catch(() => {});
    // The vocabulary of typo correction, which the services trigger fills row by row (ADR 028).
    log('search words…');
    await client.query(`insert into search_words (word)
      select search_words_of(t) from (select distinct title || ' ' || tags_text || ' ' || catalog_text as t from services) d
      on conflict do nothing`);

    log(`building ${indexes.length} indexes…`);
    for (const index of indexes) {
      const t = performance.now();
      await client.query(index.indexdef);
      log(`  ${index.indexname} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
    }
    log('vacuum analyze…');
    await client.query('vacuum analyze services');
    await client.query('vacuum analyze users');
    // A load this size leaves the next checkpoint hundreds of MB to write, spread over minutes: without this one, vmstat
    // showed 118–210 MB/s of writes in the middle of the first measurements (session 59), whose first run was the slow
    // one in sessions 51 and 58. It needs a superuser or pg_checkpoint; without them the server's checkpoint comes later.
    await client.query('checkpoint').catch((err: unknown) => log(`no checkpoint (${(err as Error).message}): the first runs may pay for it`));
    await client.query('create table bench_meta (services integer not null, sellers integer not null, generated_at timestamptz not null default now())');
    await client.query('insert into bench_meta (services, sellers) values ($1, $2)', [n, sellerIds.length]);
    return sellerIds.length;
  } finally {
    await client.end();
  }
}

/**
 * One batch of services, rows $12 … $13. The inner select draws every random number once per row (a volatile
 * select list is never flattened), the outer one composes the row from the word lists.
 */
const insertSql = `
insert into services (seller_id, title, description, category_id, sub_category_id, catalog_text, tags, tags_text, price, days, revisions,
                      status, views, orders_count, popularity, rating, reviews_count, published_at, created_at, updated_at)
select
  ($8::uuid[])[1 + floor(r.seller * array_length($8::uuid[], 1))::int],
  r.title,
  r.opening || ' ' || r.verb || ' ' || r.object || ' ' || r.qualifier || '. ' || r.middle1 || ' ' || r.middle2 || ' '
    || 'Срок от ' || r.days || ' дн., ' || r.revisions || ' правки включены. ' || r.closing,
  ($10::uuid[])[r.sub],
  case when r.nosub < 0.1 then null else ($9::uuid[])[r.sub] end,
  -- What the services trigger would write (triggers are off in this session, see above; ADR 028).
  service_catalog_text(($10::uuid[])[r.sub], case when r.nosub < 0.1 then null else ($9::uuid[])[r.sub] end),
  r.tags,
  array_to_string(r.tags, ' '),
  r.price, r.days, r.revisions, r.status,
  r.views, r.orders, r.views + 20 * r.orders,
  case when r.reviews > 0 then 400 + floor(r.stars * 101)::int else 0 end,
  r.reviews,
  case when r.status in ('draft', 'moderation') then null else r.published_at end,
  r.published_at - interval '2 days',
  r.published_at
from (
  select
    g,
    random() as seller,
    random() as nosub,
    random() as stars,
    s.sub,
    s.verb || ' ' || s.object || ' ' || s.qualifier as title,
    s.verb, s.object, s.qualifier,
    ($4::text[])[1 + floor(random() * array_length($4::text[], 1))::int] as opening,
    ($5::text[])[1 + floor(random() * array_length($5::text[], 1))::int] as middle1,
    ($5::text[])[1 + floor(random() * array_length($5::text[], 1))::int] as middle2,
    ($6::text[])[1 + floor(random() * array_length($6::text[], 1))::int] as closing,
    s.tags,
    (greatest(500, round(exp(ln(500) + random() ^ 1.5 * ln(400)) / 100) * 100) * 100)::int as price,
    1 + floor(random() ^ 2 * 30)::int as days,
    1 + floor(random() * 5)::int as revisions,
    case when random() < 0.94 then 'active' else (array['paused', 'moderation', 'draft', 'hidden'])[1 + floor(random() * 4)::int] end as status,
    floor(exp(random() * ln(20000)))::int - 1 as views,
    floor(random() ^ 4 * 150)::int as orders,
    case when random() < 0.35 then 0 else floor(random() ^ 2 * 120)::int end as reviews,
    now() - random() * interval '365 days' as published_at
  from (
    select
      g,
      sub,
      ($1::text[])[1 + floor(random() * array_length($1::text[], 1))::int] as verb,
      ($2::text[])[($11::int[])[sub]][1 + floor(random() * 6)::int] as object,
      ($3::text[])[1 + floor(random() * array_length($3::text[], 1))::int] as qualifier,
      array(select distinct ($7::text[])[1 + floor(random() * array_length($7::text[], 1))::int]
              from generate_series(1, 2 + (g % 3)) where g is not null) as tags
    from (select g, 1 + floor(random() * array_length($9::uuid[], 1))::int as sub from generate_series($12::int, $13::int) g) base
  ) s
) r`;

if (process.argv[1] === import.meta.filename) {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) is required');
  const n = Number(process.env.BENCH_SERVICES ?? 100_000);
  const result = await ensureBenchDatabase(adminUrl, n, { regenerate: process.env.BENCH_REGENERATE === '1' });
  console.log(`${result.name}: ${result.services} services, ${result.sellers} sellers, ${result.generated ? 'generated' : 'reused'} in ${result.seconds.toFixed(1)} s`);
}
