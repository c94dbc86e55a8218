import type { Letter } from '../../lib/mail.ts';

/** How long a link from a letter works. */
export const CONFIRM_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export interface LetterParams {
  brand: string;
  /** The addressee's name; an empty one gives a greeting without a name. */
  name: string;
  link: string;
}

export function confirmationLetter({ brand, name, link }: LetterParams): Letter {
  return compose({
    brand,
    name,
    link,
    subject: `Подтвердите email на ${brand}`,
    intro: `Вы зарегистрировались на ${brand}. Чтобы завершить регистрацию, подтвердите свой email.`,
    button: 'Подтвердить email',
    notes: [
      `Ссылка действительна ${hours(CONFIRM_TOKEN_TTL_MS)}.`,
      'Если вы не регистрировались — просто проигнорируйте письмо.',
    ],
  });
}

export function passwordResetLetter({ brand, name, link }: LetterParams): Letter {
  return compose({
    brand,
    name,
    link,
    subject: `Восстановление пароля на ${brand}`,
    intro: `Мы получили запрос на восстановление пароля на ${brand}. Чтобы задать новый пароль, перейдите по ссылке.`,
    button: 'Задать новый пароль',
    notes: [
      `Ссылка действительна ${hours(RESET_TOKEN_TTL_MS)}.`,
      'Если вы не запрашивали восстановление пароля — просто проигнорируйте письмо, пароль останется прежним.',
    ],
  });
}

export function emailChangeLetter({ brand, name, link }: LetterParams): Letter {
  return compose({
    brand,
    name,
    link,
    subject: `Подтвердите новый email на ${brand}`,
    intro: `Вы указали этот адрес как новый email своего аккаунта на ${brand}. Чтобы сменить адрес, подтвердите его.`,
    button: 'Подтвердить новый email',
    notes: [
      `Ссылка действительна ${hours(CONFIRM_TOKEN_TTL_MS)}.`,
      'Если вы не меняли email — просто проигнорируйте письмо, адрес останется прежним.',
    ],
  });
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "1 час", "24 часа", "5 часов". */
function hours(ms: number): string {
  const n = Math.round(ms / 3_600_000);
  const form = new Intl.PluralRules('ru').select(n);
  return `${n} ${form === 'one' ? 'час' : form === 'few' ? 'часа' : 'часов'}`;
}

interface Parts extends LetterParams {
  subject: string;
  intro: string;
  button: string;
  notes: string[];
}

const ACCENT = '#2563eb';
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

function compose({ brand, name, link, subject, intro, button, notes }: Parts): Letter {
  const greeting = name.trim() ? `Здравствуйте, ${name.trim()}!` : 'Здравствуйте!';
  const footer = `Письмо отправлено автоматически, отвечать на него не нужно.\n— Команда ${brand}`;

  const text = [greeting, intro, `${button}: ${link}`, ...notes, footer].join('\n\n') + '\n';

  const e = escapeHtml;
  const p = (content: string, style = '') => `<p style="margin:0 0 16px;${style}">${content}</p>`;
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
${p(e(greeting))}
${p(e(intro))}
<p style="margin:24px 0;"><a href="${e(link)}" style="display:inline-block;padding:12px 24px;background:${ACCENT};color:#ffffff;text-decoration:none;border-radius:8px;font-weight:600;">${e(button)}</a></p>
${p(`Если кнопка не работает, скопируйте ссылку в адресную строку браузера:<br><a href="${e(link)}" style="color:${ACCENT};word-break:break-all;">${e(link)}</a>`, 'font-size:14px;color:#4b5563;')}
${notes.map((note) => p(e(note), 'font-size:14px;color:#4b5563;')).join('\n')}
</div>
<p style="margin:16px 0 0;font-size:12px;color:#6b7280;text-align:center;">${e(footer).replace('\n', '<br>')}</p>
</div>
</body>
</html>
`;
  return { subject, text, html };
}
