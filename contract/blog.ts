import { z } from 'zod';
import { okSchema } from './api.ts';

// The blog (ADR 037): admins write posts in Markdown; the server renders and sanitises them. The answers and
// requests of contract/endpoints/blog.ts.

export const BLOG_STATUSES = ['draft', 'published'] as const;
export type BlogStatus = (typeof BLOG_STATUSES)[number];

export const BLOG_LIMITS = {
  title: { min: 5, max: 150 },
  description: { min: 20, max: 300 },
  /** Markdown characters. */
  body: { min: 1, max: 100_000 },
  /** Quotes and list items one inside another. */
  nesting: 20,
  /** Posts on a page of the public list and of the admin's. */
  pageSize: 12,
  /** The deepest page anyone asks for. */
  maxPage: 1000,
} as const;

export const BLOG_MESSAGES = {
  notFound: 'Статья не найдена',
  titleShort: `Заголовок — от ${BLOG_LIMITS.title.min} символов`,
  titleLong: `Заголовок — не длиннее ${BLOG_LIMITS.title.max} символов`,
  descriptionShort: `Краткое описание — от ${BLOG_LIMITS.description.min} символов`,
  descriptionLong: `Краткое описание — не длиннее ${BLOG_LIMITS.description.max} символов`,
  bodyEmpty: 'Напишите текст статьи',
  bodyLong: `Текст статьи — не длиннее ${BLOG_LIMITS.body.max.toLocaleString('ru-RU')} символов`,
  bodyDeep: `Слишком глубокая вложенность цитат и списков: не больше ${BLOG_LIMITS.nesting} уровней`,
  bodyComplex: 'Не удалось обработать текст статьи: упростите разметку или разбейте текст на части',
  badCover: 'Обложка — картинка, которую вы загрузили (JPEG, PNG или WebP)',
  badPage: `Номер страницы — от 1 до ${BLOG_LIMITS.maxPage}`,
  alreadyPublished: 'Статья уже опубликована',
  alreadyDraft: 'Статья уже снята с публикации',
} as const;

/** The post's public address (ADR 037: the id alone, so a new title never breaks a link). */
export const blogPath = (id: string) => `/blog/${id}`;

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

const text = (min: number, max: number, short: string, long: string) =>
  z.string(short).trim().min(min, short).max(max, long);

export const blogPostInputSchema = z.object({
  title: text(BLOG_LIMITS.title.min, BLOG_LIMITS.title.max, BLOG_MESSAGES.titleShort, BLOG_MESSAGES.titleLong),
  description: text(
    BLOG_LIMITS.description.min,
    BLOG_LIMITS.description.max,
    BLOG_MESSAGES.descriptionShort,
    BLOG_MESSAGES.descriptionLong,
  ),
  body: z
    .string(BLOG_MESSAGES.bodyEmpty)
    .max(BLOG_LIMITS.body.max, BLOG_MESSAGES.bodyLong)
    .refine((s) => s.trim().length > 0, BLOG_MESSAGES.bodyEmpty),
  /** An upload's url or stored path; null for none. */
  cover: z.string(BLOG_MESSAGES.badCover).max(300, BLOG_MESSAGES.badCover).nullable().default(null),
});
export type BlogPostInput = z.input<typeof blogPostInputSchema>;

export const blogPreviewInputSchema = z.object({
  body: z.string(BLOG_MESSAGES.bodyEmpty).max(BLOG_LIMITS.body.max, BLOG_MESSAGES.bodyLong),
});

export const blogStatusInputSchema = z.object({ status: z.enum(BLOG_STATUSES, 'Статус — draft или published') });

export const blogPageQuerySchema = z.object({
  page: z.coerce
    .number(BLOG_MESSAGES.badPage)
    .int(BLOG_MESSAGES.badPage)
    .min(1, BLOG_MESSAGES.badPage)
    .max(BLOG_LIMITS.maxPage, BLOG_MESSAGES.badPage)
    .default(1),
});

/** A post is looked up like a page: a malformed id is a 404 (the service checks it), not a 400. */
export const blogIdParams = z.object({ id: z.string().max(100) });

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

/** A post in a list (the public list, the admin's). */
export const blogCardSchema = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  cover: z.string().nullable(),
  status: z.enum(BLOG_STATUSES),
  published_at: z.string().nullable(),
  updated_at: z.string(),
});
export type BlogCard = z.infer<typeof blogCardSchema>;

/** The article as pages show it: `html` is sanitised server HTML. */
export const blogPostSchema = blogCardSchema.extend({
  html: z.string(),
  created_at: z.string(),
  author: z.object({ _id: z.string(), name: z.string() }).nullable(),
});
export type BlogPost = z.infer<typeof blogPostSchema>;

/** The admin's form: the Markdown too. */
export const blogAdminPostSchema = blogPostSchema.extend({ body: z.string() });
export type BlogAdminPost = z.infer<typeof blogAdminPostSchema>;

export const blogPageSchema = okSchema(z.array(blogCardSchema)).extend({ total: z.number().int() });
export const blogPostAnswerSchema = okSchema(blogPostSchema);
export const blogAdminPostAnswerSchema = okSchema(blogAdminPostSchema);
export const blogPreviewAnswerSchema = okSchema(z.object({ html: z.string() }));
