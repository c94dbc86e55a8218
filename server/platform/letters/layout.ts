import type { Letter } from '../../lib/mail.ts';

/** The one HTML escaping of letters: every value that reaches a letter's HTML goes through it. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What a letter says; the layout turns it into the HTML and the plain text (values are plain text, never HTML). */
export interface LetterContent {
  brand: string;
  /** What the letter is about; the layout adds « — brand», so that every subject ends with the brand (ADR 046). */
  subject: string;
  /** The addressee's name; an empty one gives a greeting without a name. */
  name: string;
  /** The body after the greeting. */
  paragraphs: string[];
  /** The one thing to do: a button in the HTML, "label: link" in the text. */
  action: { label: string; link: string };
  /** Small print after the action. */
  notes?: string[];
}

const ACCENT = '#2563eb';
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** The one layout of every letter: brand, greeting, body, a button with its link spelt out, notes, footer. */
export function renderLetter({ brand, subject: about, name, paragraphs, action, notes = [] }: LetterContent): Letter {
  const subject = `${about} — ${brand}`;
  const greeting = name.trim() ? `Здравствуйте, ${name.trim()}!` : 'Здравствуйте!';
  const footer = `Письмо отправлено автоматически, отвечать на него не нужно.\n— Команда сервиса «${brand}»`;

  const text = [greeting, ...paragraphs, `${action.label}: ${action.link}`, ...notes, footer].join('\n\n') + '\n';

  const e = escapeHtml;
  const p = (content: string, style = '') => `<p style="margin:0 0 16px;${style}">${content}</p>`;
  const small = 'font-size:14px;color:#4b5563;';
  const html = `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<div style="max-width:560px;margin:0 auto;padding:24px 12px;font-family:${FONT};font-size:16px;line-height:1.5;color:#111827;">
<div style="background:#ffffff;border-radius:12px;padding:28px 24px;">
${p(e(brand), `font-size:20px;font-weight:700;color:${ACCENT};`)}
${[greeting, ...paragraphs].map((line) => p(e(line).replaceAll('\n', '<br>'))).join('\n')}
<p style="margin:24px 0;"><a href="${e(action.link)}" style="display:inline-block;padding:12px 24px;background:${ACCENT};color:#ffffff;text-decoration:none;border-radius:8px;font-weight:600;">${e(action.label)}</a></p>
${p(`Если кнопка не работает, скопируйте ссылку в адресную строку браузера:<br><a href="${e(action.link)}" style="color:${ACCENT};word-break:break-all;">${e(action.link)}</a>`, small)}
${notes.map((note) => p(e(note), small)).join('\n')}
</div>
<p style="margin:16px 0 0;font-size:12px;color:#6b7280;text-align:center;">${e(footer).replace('\n', '<br>')}</p>
</div>
</body>
</html>
`;
  return { subject, text, html };
}

/**
 * A letter whose kind the person can switch off (ADR 030): the link that does it, after the footer of both forms,
 * and as the List-Unsubscribe header.
 */
export function withUnsubscribe(letter: Letter, link: string, what: string): Letter {
  const line = `Не хотите получать письма «${what}»? Отписаться: ${link}`;
  const html = letter.html.replace(
    '</div>\n</body>',
    `<p style="margin:8px 0 0;font-size:12px;color:#6b7280;text-align:center;">Не хотите получать письма «${escapeHtml(what)}»? <a href="${escapeHtml(link)}" style="color:#6b7280;">Отписаться</a></p>\n</div>\n</body>`,
  );
  return { ...letter, text: `${letter.text}\n${line}\n`, html, unsubscribe: link };
}
