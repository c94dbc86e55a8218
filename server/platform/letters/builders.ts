import type { Letter } from '../../lib/mail.ts';
import { pluralWithCount } from '#contract/plural';
import { renderLetter } from './layout.ts';

// Every letter the site sends, each through the one layout. Values are plain text: the layout escapes them.
// Wording (ADR 046): the brand is the operator's setting, so it stands as a name in quotes after a noun
// («на сервисе «Подряд»»), never declined; a person's name stands in the nominative («Автор: …»), and no verb
// guesses a gender («ответил(а)»); the layout ends every subject with « — brand».

/** How long a link from a letter works. */
export const CONFIRM_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface LetterParams {
  brand: string;
  /** The addressee's name; an empty one gives a greeting without a name. */
  name: string;
  link: string;
}

/** "1 час", "24 часа", "5 часов". */
/** The brand after a noun, in quotes: it is a name and is not declined («на сервисе «Подряд»»). */
export const onSite = (brand: string) => `сервисе «${brand}»`;

const hours = (ms: number) => pluralWithCount(Math.round(ms / 3_600_000), 'час', 'часа', 'часов');

// --- Account ---------------------------------------------------------------------------------------------

export function confirmationLetter({ brand, name, link }: LetterParams): Letter {
  return renderLetter({
    brand,
    name,
    subject: 'Подтвердите email',
    paragraphs: [`Вы зарегистрировались на ${onSite(brand)}. Чтобы завершить регистрацию, подтвердите свой email.`],
    action: { label: 'Подтвердить email', link },
    notes: [`Ссылка действительна ${hours(CONFIRM_TOKEN_TTL_MS)}.`, 'Если вы не регистрировались — просто проигнорируйте письмо.'],
  });
}

export function passwordResetLetter({ brand, name, link }: LetterParams): Letter {
  return renderLetter({
    brand,
    name,
    subject: 'Восстановление пароля',
    paragraphs: [`Мы получили запрос на восстановление пароля на ${onSite(brand)}. Чтобы задать новый пароль, перейдите по ссылке.`],
    action: { label: 'Задать новый пароль', link },
    notes: [
      `Ссылка действительна ${hours(RESET_TOKEN_TTL_MS)}.`,
      'Если вы не запрашивали восстановление пароля — просто проигнорируйте письмо, пароль останется прежним.',
    ],
  });
}

/** An administrator turned the person's second factor off (ADR 054): they must know, and may not have asked. */
export function twoFactorResetLetter({ brand, name, link }: LetterParams): Letter {
  return renderLetter({
    brand,
    name,
    subject: 'Двухфакторная защита сброшена',
    paragraphs: [
      `Администрация ${onSite(brand)} сбросила двухфакторную защиту вашего аккаунта: вход снова возможен по паролю, а все сеансы завершены.`,
      'Включите защиту заново в настройках профиля — с новым ключом в приложении-аутентификаторе.',
    ],
    action: { label: 'Открыть настройки', link },
    notes: ['Если вы не просили о сбросе — сразу смените пароль и напишите в поддержку.'],
  });
}

export function emailChangeLetter({ brand, name, link }: LetterParams): Letter {
  return renderLetter({
    brand,
    name,
    subject: 'Подтвердите новый email',
    paragraphs: [`Вы указали этот адрес как новый email своего аккаунта на ${onSite(brand)}. Чтобы сменить адрес, подтвердите его.`],
    action: { label: 'Подтвердить новый email', link },
    notes: [
      `Ссылка действительна ${hours(CONFIRM_TOKEN_TTL_MS)}.`,
      'Если вы не меняли email — просто проигнорируйте письмо, адрес останется прежним.',
    ],
  });
}

/** What a new-device letter says of the sign-in (ADR 055). */
export interface SignInDetails {
  device: string;
  os: string;
  browser: string;
  /** The network, coarsened («203.0.113.0/24»); null when unknown. */
  address: string | null;
  /** Where the address is («Москва, Россия», ADR 059); null (or absent, in letters queued before it) when unknown. */
  place?: string | null;
  /** When, as the letter says it («25 ноября 2026 г. в 14:30 МСК»). */
  at: string;
}

/** Where a sign-in came from: the city beside its network when the server knows it (ADR 059). */
function where(p: SignInDetails): string {
  const network = p.address ?? 'неизвестна';
  return p.place ? `Место: ${p.place} (сеть ${network})` : `Сеть: ${network}`;
}

/** A sign-in from a device the account was never used on (ADR 055): what, where, when, and what to do if not them. */
export function newDeviceLetter(p: LetterParams & SignInDetails): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: 'Вход с нового устройства',
    paragraphs: [
      `В ваш аккаунт на ${onSite(p.brand)} выполнен вход с нового устройства.`,
      `Устройство: ${p.device}, ${p.os}. Браузер: ${p.browser}. ${where(p)}. Время: ${p.at}.`,
    ],
    action: { label: 'Проверить сеансы', link: p.link },
    notes: [
      'Если это были вы — ничего делать не нужно.',
      'Если нет — откройте настройки, завершите незнакомый сеанс и смените пароль: смена пароля завершит все сеансы, кроме текущего.',
    ],
  });
}

/** To a person who asked to delete their account (ADR 052): when it happens, and how to keep it. */
export function deletionRequestedLetter(p: LetterParams & { due: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: 'Запрос на удаление аккаунта',
    paragraphs: [
      `Мы получили запрос на удаление вашего аккаунта на ${onSite(p.brand)}.`,
      `${p.due} аккаунт будет удалён: имя, email, телефон и фотографии будут стёрты, войти в него будет нельзя.`,
    ],
    action: { label: 'Отменить удаление', link: p.link },
    notes: ['Если вы передумали или запрос отправили не вы — войдите и отмените удаление в настройках до этого срока, затем смените пароль.'],
  });
}

// --- Moderation ------------------------------------------------------------------------------------------

export type ServiceDecision = 'approve' | 'reject' | 'hide' | 'restore' | 'edit';

/** The letter telling a seller what the moderation did with their service. */
export function serviceDecisionLetter(p: LetterParams & { title: string; decision: ServiceDecision; reason?: string | null }): Letter {
  const what = `«${p.title}»`;
  const parts: Record<ServiceDecision, { subject: string; intro: string }> = {
    approve: { subject: 'Услуга прошла модерацию', intro: `Ваша услуга ${what} прошла модерацию и опубликована в каталоге.` },
    reject: { subject: 'Услуга не прошла модерацию', intro: `Ваша услуга ${what} не прошла модерацию. Исправьте её и отправьте на проверку снова.` },
    hide: { subject: 'Услуга скрыта администрацией', intro: `Администрация скрыла вашу услугу ${what} из каталога.` },
    restore: { subject: 'Услуга снова в каталоге', intro: `Администрация вернула вашу услугу ${what} в каталог.` },
    edit: { subject: 'Администрация изменила вашу услугу', intro: `Администрация внесла изменения в вашу услугу ${what}.` },
  };
  const { subject, intro } = parts[p.decision];
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject,
    paragraphs: [intro, ...(p.reason ? [`Причина: ${p.reason}`] : [])],
    action: { label: 'Ваши услуги', link: p.link },
  });
}

export type ProjectDecision = 'hide' | 'restore' | 'edit';

/** The letter telling a customer what the moderation did with their project. */
export function projectDecisionLetter(p: LetterParams & { title: string; decision: ProjectDecision; reason?: string | null }): Letter {
  const what = `«${p.title}»`;
  const parts: Record<ProjectDecision, { subject: string; paragraphs: string[] }> = {
    hide: {
      subject: `Проект ${what} скрыт модератором`,
      paragraphs: [
        `Модератор скрыл ваш проект ${what}. Он больше не виден исполнителям.`,
        ...(p.reason ? [`Причина: ${p.reason}`] : []),
        'Исправьте проект и обратитесь в поддержку, если не согласны с решением.',
      ],
    },
    restore: {
      subject: `Проект ${what} снова опубликован`,
      paragraphs: [`Модератор восстановил ваш проект ${what}. Он снова виден исполнителям.`],
    },
    edit: {
      subject: `Проект ${what} отредактирован модератором`,
      paragraphs: [
        `Модератор внёс правки в ваш проект ${what}, чтобы он соответствовал правилам площадки.`,
        'Проверьте проект по ссылке и обратитесь в поддержку, если не согласны с правками.',
      ],
    },
  };
  const { subject, paragraphs } = parts[p.decision];
  return renderLetter({ brand: p.brand, name: p.name, subject, paragraphs, action: { label: 'Открыть проект', link: p.link } });
}

// --- Bids --------------------------------------------------------------------------------------------------

/** To a customer: a seller bid on their project. */
export function newBidLetter(p: LetterParams & { title: string; seller: string; price: string; days: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Новый отклик на проект «${p.title}»`,
    paragraphs: [`Новый отклик на ваш проект «${p.title}»: ${p.price}, срок ${p.days}.`, `Исполнитель: ${p.seller}.`, 'Сравните отклики и выберите исполнителя.'],
    action: { label: 'Смотреть отклики', link: p.link },
  });
}

/** To a seller: the customer accepted their bid; the order awaits payment. */
export function bidAcceptedLetter(p: LetterParams & { title: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Ваш отклик на проект «${p.title}» принят`,
    paragraphs: [
      `Заказчик выбрал вас исполнителем проекта «${p.title}». Заказ создан и ждёт оплаты.`,
      'Как только заказчик оплатит его, начнётся срок выполнения. Обсудить детали можно в чате заказа.',
    ],
    action: { label: 'Открыть чат заказа', link: p.link },
  });
}

/** To a seller: the customer chose another seller. */
export function bidRejectedLetter(p: LetterParams & { title: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Заказчик выбрал другого исполнителя для «${p.title}»`,
    paragraphs: [`По проекту «${p.title}» заказчик выбрал другого исполнителя. Посмотрите другие проекты на бирже.`],
    action: { label: 'Биржа проектов', link: p.link },
  });
}

/** A top-up of the balance arrived (ADR 062): what reached the balance, what was paid, how and when. */
export function topUpReceiptLetter(p: LetterParams & { credited: string; amount: string; method: string; fee: string | null; paidAt: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Пополнение баланса на ${p.credited}`,
    paragraphs: [
      `Ваш баланс пополнен на ${p.credited}. Этими деньгами можно оплачивать заказы.`,
      ['Назначение: Пополнение баланса', `Оплачено: ${p.amount}`, ...(p.fee ? [`В том числе комиссия способа оплаты: ${p.fee}`] : []), `Способ оплаты: ${p.method}`, `Дата: ${p.paidAt}`].join('\n'),
    ],
    action: { label: 'Открыть финансы', link: p.link },
    notes: ['Сохраните это письмо: оно подтверждает оплату.'],
  });
}

// --- Reviews (ADR 029) -----------------------------------------------------------------------------------

/** A review about the addressee became visible (both parties reviewed, or the blind period ended). */
export function newReviewLetter(p: LetterParams & { author: string; rating: number; number: number; title: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Новый отзыв о вас по заказу №${p.number}`,
    paragraphs: [`Новый отзыв о вас по заказу №${p.number} «${p.title}»: оценка ${p.rating} из 5.`, `Автор отзыва: ${p.author}.`, 'Вы можете один раз ответить на отзыв.'],
    action: { label: 'Посмотреть отзыв', link: p.link },
  });
}

/** The person a review is about answered the addressee's review. */
export function reviewAnsweredLetter(p: LetterParams & { author: string; number: number; title: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Ответ на ваш отзыв по заказу №${p.number}`,
    paragraphs: [`Получен ответ на ваш отзыв по заказу №${p.number} «${p.title}».`, `Автор ответа: ${p.author}.`],
    action: { label: 'Посмотреть ответ', link: p.link },
  });
}

// --- Appeals (ADR 035) ----------------------------------------------------------------------------------

/** An admin answered and closed the addressee's appeal: the answer itself, and a link to the appeals tab. */
export function appealAnsweredLetter(p: LetterParams & { number: number; subject: string; answer: string }): Letter {
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `Ответ на ваше обращение №${p.number}`,
    paragraphs: [`Администрация ответила на ваше обращение №${p.number} («${p.subject}»):`, p.answer],
    action: { label: 'Открыть обращения', link: p.link },
  });
}

// --- Messages --------------------------------------------------------------------------------------------

/** To a member who was offline: new messages wait in a chat (ADR 030), with their first lines. */
export function unreadMessagesLetter(p: LetterParams & { from: string; lines: string[]; count: number }): Letter {
  const messages = pluralWithCount(p.count, 'новое сообщение', 'новых сообщения', 'новых сообщений');
  return renderLetter({
    brand: p.brand,
    name: p.name,
    subject: `${p.from}: ${messages}`,
    paragraphs: [`У вас ${messages}. Отправитель: ${p.from}.`, ...p.lines.map((line) => `«${line}»`)],
    action: { label: 'Открыть переписку', link: p.link },
  });
}

export * from './money-letters.ts';
export * from './order-letters.ts';
