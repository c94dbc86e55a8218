// Draws the demo services' pictures (server/db/seed/covers/*.jpg, 800×600 JPEG) for maintainers:
//
//   node --import tsx scripts/make-demo-covers.ts            # every cover named in DEMO_SERVICES
//   node --import tsx scripts/make-demo-covers.ts logo-1 …   # only these
//
// Each picture is an HTML page (gradient, an illustration, a short Russian caption; system fonts only,
// nothing fetched) screenshotted by Debian's Chromium. The JPEGs are committed: the seed only copies them
// and never needs a browser. A new cover needs a design below and its name in DEMO_SERVICES (demo.ts).
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import * as lucide from 'lucide-react';
import { chromium } from 'playwright-core';
import { DEMO_COVERS_DIR, DEMO_SERVICES, demoCoverPath } from '../server/db/seed/demo.ts';
import { categories } from '../server/db/reference/categories.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDTH = 800;
const HEIGHT = 600;
/** Per picture: the whole set must stay small in the repository (~1 MB for 30 or so). */
const TARGET_BYTES = 30 * 1024;
const MAX_BYTES = 60 * 1024;

// ---------------------------------------------------------------------------------------------------------
// Themes: one per category.
// ---------------------------------------------------------------------------------------------------------

interface Theme {
  bg: string;
  /** Caption colour on the background. */
  fg: string;
  /** A bright colour on the background, a strong one inside white panels. */
  glow: string;
  ink: string;
  soft: string;
  dark: boolean;
}

const THEMES: Record<string, Theme> = {
  design: { bg: 'linear-gradient(135deg, #3b0f7a 0%, #7c3aed 48%, #db2777 100%)', fg: '#ffffff', glow: '#f0abfc', ink: '#6d28d9', soft: '#f5f3ff', dark: true },
  development: { bg: 'linear-gradient(135deg, #0b1229 0%, #1e3a8a 55%, #0e7490 100%)', fg: '#ffffff', glow: '#67e8f9', ink: '#1d4ed8', soft: '#eff6ff', dark: true },
  'texts-translations': { bg: 'linear-gradient(135deg, #fffbeb 0%, #fed7aa 58%, #fdba74 100%)', fg: '#431407', glow: '#ffffff', ink: '#c2410c', soft: '#fff7ed', dark: false },
  'seo-traffic': { bg: 'linear-gradient(135deg, #042f2e 0%, #065f46 50%, #15803d 100%)', fg: '#ffffff', glow: '#86efac', ink: '#047857', soft: '#ecfdf5', dark: true },
  'smm-marketing': { bg: 'linear-gradient(135deg, #701a45 0%, #db2777 52%, #fb923c 100%)', fg: '#ffffff', glow: '#fde68a', ink: '#be185d', soft: '#fff1f2', dark: true },
};

// ---------------------------------------------------------------------------------------------------------
// Small pieces of drawing.
// ---------------------------------------------------------------------------------------------------------

type Lucide = typeof lucide;
type IconName = { [K in keyof Lucide]: Lucide[K] extends lucide.LucideIcon ? K : never }[keyof Lucide];

/** A lucide icon as inline SVG. */
function icon(name: IconName, size: number, color: string, strokeWidth = 2): string {
  const component: lucide.LucideIcon = lucide[name];
  return renderToStaticMarkup(createElement(component, { size, color, strokeWidth, 'aria-hidden': true }));
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A caption: a line never breaks at its hyphen ("SEO-|аудит"), the caption gets smaller instead. */
const caption = (text: string) => esc(text).replace(/-/g, '\u2011');

/** Grey text lines of a document: widths in per cent. */
const lines = (widths: number[], color = '#e5e7eb', height = 12, gap = 12) =>
  widths.map((w) => `<div style="width:${w}%;height:${height}px;border-radius:${height / 2}px;background:${color};margin-bottom:${gap}px"></div>`).join('');

/** A browser window frame around `body`. */
const browser = (body: string, style = '', url = 'example.ru') => `
  <div class="window" style="${style}">
    <div class="window__bar"><i style="background:#f87171"></i><i style="background:#fbbf24"></i><i style="background:#34d399"></i><span>${esc(url)}</span></div>
    <div class="window__body">${body}</div>
  </div>`;

/** A phone frame around `body`. */
const phone = (body: string, style = '') => `<div class="phone" style="${style}"><div class="phone__screen">${body}</div></div>`;

// ---------------------------------------------------------------------------------------------------------
// Designs. "hero": the caption beside an illustration (the card's cover); "panel": a large white panel with
// details and the caption under it (the gallery's further pictures).
// ---------------------------------------------------------------------------------------------------------

interface Design {
  layout: 'hero' | 'panel';
  caption: string;
  /** A line under the caption (hero only). */
  note?: string;
  /** Icon in the category label. */
  badge?: IconName;
  art: (t: Theme) => string;
}

const DESIGNS: Record<string, Design> = {
  // Design ------------------------------------------------------------------------------------------------
  'logo-1': {
    layout: 'hero',
    caption: 'Логотип',
    note: '3 варианта и исходники',
    badge: 'PenTool',
    art: (t) => `
      <div class="card" style="width:300px;height:300px;display:grid;place-items:center;transform:rotate(-4deg)">
        <div style="text-align:center">
          <div style="width:132px;height:132px;margin:0 auto 18px;border-radius:50%;background:linear-gradient(135deg, ${t.ink}, #db2777);display:grid;place-items:center">
            ${icon('Mountain', 78, '#ffffff', 2.2)}
          </div>
          <div style="font-weight:700;font-size:34px;letter-spacing:6px;color:#1f1147">СЕВЕР</div>
          <div style="font-size:13px;letter-spacing:4px;color:#6b7280;margin-top:6px">ТУРИСТИЧЕСКИЙ КЛУБ</div>
        </div>
      </div>
      <div class="chip" style="position:absolute;left:0;bottom:28px">${icon('Sparkles', 22, t.ink)} Вектор, SVG и PNG</div>`,
  },
  'logo-2': {
    layout: 'panel',
    caption: 'Три варианта на выбор',
    art: (t) => {
      const tile = (mark: string, name: string, bg: string, fg: string) => `
        <div style="flex:1;border-radius:18px;background:${bg};display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px">
          ${mark}<div style="font-weight:700;font-size:24px;letter-spacing:3px;color:${fg}">${name}</div>
        </div>`;
      return `<div style="display:flex;gap:20px;height:100%">
        ${tile(`<div style="width:96px;height:96px;border-radius:50%;background:${t.ink};display:grid;place-items:center;color:#fff;font-weight:700;font-size:56px">С</div>`, 'СЕВЕР', t.soft, '#1f1147')}
        ${tile(`<div style="width:0;height:0;border-left:56px solid transparent;border-right:56px solid transparent;border-bottom:96px solid #f9a8d4"></div>`, 'СЕВЕР', '#1f1147', '#ffffff')}
        ${tile(`<div style="width:96px;height:96px;border-radius:28px;background:linear-gradient(135deg,#f59e0b,#db2777);display:grid;place-items:center">${icon('Compass', 60, '#ffffff')}</div>`, 'север', '#fdf2f8', '#831843')}
      </div>`;
    },
  },
  'logo-3': {
    layout: 'panel',
    caption: 'Логотип на визитке и в соцсетях',
    art: (t) => `
      <div style="display:flex;gap:28px;height:100%;align-items:center;justify-content:center;background:${t.soft};border-radius:16px">
        <div style="width:330px;height:196px;border-radius:14px;background:#1f1147;box-shadow:0 18px 36px rgba(31,17,71,.35);padding:26px;color:#fff;display:flex;flex-direction:column;justify-content:space-between;transform:rotate(-3deg)">
          <div style="display:flex;align-items:center;gap:12px">
            <div style="width:46px;height:46px;border-radius:50%;background:linear-gradient(135deg, ${t.ink}, #db2777);display:grid;place-items:center">${icon('Mountain', 28, '#fff')}</div>
            <b style="font-size:22px;letter-spacing:4px">СЕВЕР</b>
          </div>
          <div style="font-size:14px;line-height:1.6;opacity:.85">Анна Соколова<br>+7 900 000-00-00</div>
        </div>
        <div style="display:flex;flex-direction:column;align-items:center;gap:14px">
          <div style="width:150px;height:150px;border-radius:50%;background:linear-gradient(135deg, ${t.ink}, #db2777);display:grid;place-items:center;box-shadow:0 14px 30px rgba(109,40,217,.35)">${icon('Mountain', 90, '#fff', 2.2)}</div>
          <div style="font-size:17px;color:#4b5563">@sever.club</div>
        </div>
      </div>`,
  },
  'brand-1': {
    layout: 'hero',
    caption: 'Фирменный стиль',
    note: 'Логотип, цвета, шрифты',
    badge: 'Palette',
    art: () => `
      <div class="card" style="width:226px;height:320px;position:absolute;left:0;top:40px;transform:rotate(-6deg);padding:24px">
        <div style="font-size:104px;font-weight:700;line-height:1;color:#1f1147">Аа</div>
        <div style="font-size:17px;color:#6b7280;margin:12px 0 18px">DejaVu Sans Bold</div>
        ${lines([90, 70, 80], '#ede9fe')}
      </div>
      <div style="position:absolute;right:-8px;top:130px;display:grid;gap:12px;transform:rotate(5deg)">
        ${['#6d28d9', '#db2777', '#f59e0b', '#1f1147'].map((c) => `<div class="card" style="width:160px;height:66px;padding:10px;display:flex;align-items:center;gap:12px"><i style="width:46px;height:46px;border-radius:12px;background:${c}"></i><span style="font-family:'DejaVu Sans Mono';font-size:16px;color:#374151">${c.toUpperCase()}</span></div>`).join('')}
      </div>`,
  },
  'brand-2': {
    layout: 'panel',
    caption: 'Брендбук',
    art: (t) => `
      <div style="display:flex;height:100%;border-radius:16px;overflow:hidden;border:1px solid #ede9fe">
        <div style="flex:1;background:${t.soft};display:flex;flex-direction:column;align-items:center;justify-content:center;gap:18px">
          <div style="width:120px;height:120px;border-radius:50%;background:linear-gradient(135deg, ${t.ink}, #db2777);display:grid;place-items:center">${icon('Feather', 70, '#fff')}</div>
          <b style="font-size:30px;letter-spacing:5px;color:#1f1147">ЛЁГКОСТЬ</b>
          <div style="font-size:15px;color:#6b7280">Раздел 1. Логотип</div>
        </div>
        <div style="flex:1;padding:34px;display:flex;flex-direction:column;gap:16px">
          <b style="font-size:22px;color:#1f1147">Цвета</b>
          ${[
            ['#6D28D9', 'Фиолетовый'],
            ['#DB2777', 'Малиновый'],
            ['#FBBF24', 'Янтарный'],
            ['#F5F3FF', 'Фон'],
          ]
            .map(([c, n]) => `<div style="display:flex;align-items:center;gap:14px"><i style="width:54px;height:54px;border-radius:14px;background:${c};border:1px solid #e5e7eb"></i><div><div style="font-size:17px;color:#111827">${n}</div><div style="font-family:'DejaVu Sans Mono';font-size:14px;color:#6b7280">${c}</div></div></div>`)
            .join('')}
        </div>
      </div>`,
  },
  'brand-3': {
    layout: 'panel',
    caption: 'Шрифты и цвета',
    art: (t) => `
      <div style="display:flex;gap:26px;height:100%">
        <div style="flex:1.3;background:#1f1147;border-radius:16px;padding:30px;color:#fff;display:flex;flex-direction:column;justify-content:space-between">
          <div style="font-size:120px;font-weight:700;line-height:1">Бб</div>
          <div>
            <div style="font-size:26px;font-weight:700;margin-bottom:8px">Заголовки</div>
            <div style="font-size:17px;opacity:.8;line-height:1.5">Съешь же ещё этих мягких французских булок</div>
          </div>
        </div>
        <div style="flex:1;display:grid;grid-template-columns:1fr 1fr;gap:14px">
          ${[t.ink, '#db2777', '#f59e0b', '#10b981', '#1f1147', t.soft].map((c) => `<div style="border-radius:16px;background:${c};border:1px solid #e5e7eb"></div>`).join('')}
        </div>
      </div>`,
  },
  'icons-1': {
    layout: 'hero',
    caption: 'Иконки',
    note: 'Единый стиль для приложения',
    badge: 'Shapes',
    art: (t) => {
      const names: IconName[] = ['House', 'Search', 'Heart', 'MessageCircle', 'Bell', 'ShoppingCart', 'Camera', 'Settings', 'User'];
      return `<div style="display:grid;grid-template-columns:repeat(3, 92px);gap:18px;transform:rotate(-3deg)">
        ${names.map((n, i) => `<div class="card" style="width:92px;height:92px;display:grid;place-items:center;border-radius:24px;${i === 4 ? `background:${t.ink}` : ''}">${icon(n, 44, i === 4 ? '#ffffff' : t.ink)}</div>`).join('')}
      </div>`;
    },
  },
  'icons-2': {
    layout: 'panel',
    caption: 'Набор иконок в Figma',
    art: (t) => {
      const names: IconName[] = ['House', 'Search', 'Heart', 'MessageCircle', 'Bell', 'ShoppingCart', 'Camera', 'Settings', 'User', 'Calendar', 'MapPin', 'Mail', 'Star', 'Gift', 'Music', 'Cloud', 'Lock', 'Truck'];
      return `<div style="display:flex;gap:28px;height:100%">
        <div style="flex:1;display:grid;grid-template-columns:repeat(6, 1fr);gap:12px;align-content:center">
          ${names.map((n) => `<div style="aspect-ratio:1;border-radius:14px;background:${t.soft};display:grid;place-items:center">${icon(n, 32, t.ink)}</div>`).join('')}
        </div>
        <div style="width:170px;display:flex;flex-direction:column;gap:12px;justify-content:center;font-size:16px;color:#374151">
          <div><b style="color:#111827">24 × 24</b><br>сетка</div><div><b style="color:#111827">2 px</b><br>толщина линии</div><div><b style="color:#111827">SVG</b><br>и компоненты</div>
        </div>
      </div>`;
    },
  },
  'presentation-1': {
    layout: 'hero',
    caption: 'Презентация',
    note: 'PowerPoint или Google Slides',
    badge: 'Presentation',
    art: (t) => `
      <div class="card" style="position:absolute;left:30px;top:60px;width:320px;height:180px;transform:rotate(6deg);opacity:.75"></div>
      <div class="card" style="position:absolute;left:0;top:130px;width:340px;height:191px;padding:22px;transform:rotate(-4deg)">
        <div style="font-weight:700;font-size:19px;color:#1f1147;margin-bottom:14px">Рост выручки</div>
        <div style="display:flex;align-items:flex-end;gap:14px;height:100px">
          ${[34, 52, 46, 70, 92].map((h, i) => `<div style="flex:1;height:${h}%;border-radius:6px 6px 0 0;background:${i === 4 ? '#db2777' : t.ink};opacity:${i === 4 ? 1 : 0.35 + i * 0.15}"></div>`).join('')}
        </div>
      </div>
      <div class="chip" style="position:absolute;right:10px;bottom:40px">${icon('ChartPie', 22, t.ink)} до 15 слайдов</div>`,
  },
  'presentation-2': {
    layout: 'panel',
    caption: 'Слайды в едином стиле',
    art: (t) => {
      const slide = (inner: string, bg = t.soft) => `<div style="border-radius:12px;background:${bg};padding:18px;display:flex;flex-direction:column;justify-content:center">${inner}</div>`;
      return `<div style="display:grid;grid-template-columns:1fr 1fr;gap:18px;height:100%">
        ${slide(`<div style="font-size:26px;font-weight:700;color:#fff">Стратегия 2025</div><div style="font-size:15px;color:#e9d5ff;margin-top:8px">Итоги и планы</div>`, `linear-gradient(135deg, ${t.ink}, #db2777)`)}
        ${slide(`<div style="display:flex;align-items:flex-end;gap:10px;height:110px">${[40, 65, 50, 85, 100].map((h) => `<i style="flex:1;height:${h}%;border-radius:4px;background:${t.ink}"></i>`).join('')}</div>`)}
        ${slide(`<div style="display:flex;align-items:center;gap:20px"><div style="width:110px;height:110px;border-radius:50%;background:conic-gradient(${t.ink} 0 45%, #db2777 45% 75%, #fbbf24 75% 100%)"></div><div style="flex:1">${lines([90, 70, 80], '#ddd6fe')}</div></div>`)}
        ${slide(`<div style="display:flex;justify-content:space-between;align-items:center">${['Q1', 'Q2', 'Q3', 'Q4'].map((q) => `<div style="text-align:center"><div style="width:22px;height:22px;border-radius:50%;background:${t.ink};margin:0 auto 8px"></div><span style="font-size:15px;color:#4b5563">${q}</span></div>`).join('<div style="flex:1;height:3px;background:#ddd6fe;margin-bottom:24px"></div>')}</div>`)}
      </div>`;
    },
  },

  // Development -------------------------------------------------------------------------------------------
  'landing-1': {
    layout: 'hero',
    caption: 'Лендинг',
    note: 'Вёрстка по макету из Figma',
    badge: 'Code',
    art: (t) =>
      browser(
        `<div style="border-radius:10px;background:linear-gradient(135deg, ${t.ink}, #0e7490);padding:20px;color:#fff;margin-bottom:14px">
          <div style="font-weight:700;font-size:19px;margin-bottom:10px">Кофейня «Зерно»</div>
          ${lines([80, 60], 'rgba(255,255,255,.55)', 8, 8)}
          <div style="display:inline-block;margin-top:6px;padding:7px 16px;border-radius:8px;background:#fbbf24;color:#1f2937;font-size:13px;font-weight:700">Заказать</div>
        </div>
        <div style="display:grid;grid-template-columns:repeat(3, 1fr);gap:10px">
          ${['Coffee', 'Croissant', 'MapPin'].map((n) => `<div style="border-radius:10px;background:${t.soft};padding:12px 10px">${icon(n as IconName, 24, t.ink)}<div style="margin-top:10px">${lines([90, 60], '#dbeafe', 6, 6)}</div></div>`).join('')}
        </div>`,
        'width:340px;transform:rotate(-3deg)',
        'zerno-coffee.ru',
      ),
  },
  'landing-2': {
    layout: 'panel',
    caption: 'Адаптивная вёрстка',
    art: (t) => `
      <div style="position:relative;height:100%;background:${t.soft};border-radius:16px;overflow:hidden">
        ${browser(
          `<div style="display:flex;gap:18px;align-items:center;margin-bottom:18px">
            <div style="flex:1"><div style="font-weight:700;font-size:24px;color:#0f172a;margin-bottom:12px">Свежий кофе каждый день</div>${lines([90, 70], '#cbd5e1', 9, 9)}
              <div style="display:inline-block;margin-top:6px;padding:9px 20px;border-radius:8px;background:${t.ink};color:#fff;font-size:14px;font-weight:700">Меню</div></div>
            <div style="width:170px;height:130px;border-radius:12px;background:linear-gradient(135deg,#f59e0b,#b45309);display:grid;place-items:center">${icon('Coffee', 64, '#fff')}</div>
          </div>
          <div style="display:grid;grid-template-columns:repeat(3, 1fr);gap:12px">${[1, 2, 3].map(() => `<div style="height:62px;border-radius:10px;background:#e2e8f0"></div>`).join('')}</div>`,
          'position:absolute;left:28px;top:28px;width:520px',
          'zerno-coffee.ru',
        )}
        ${phone(
          `<div style="font-weight:700;font-size:15px;color:#0f172a;margin-bottom:8px">Свежий кофе каждый день</div>${lines([90, 70], '#cbd5e1', 6, 6)}
          <div style="height:80px;border-radius:10px;background:linear-gradient(135deg,#f59e0b,#b45309);margin:8px 0;display:grid;place-items:center">${icon('Coffee', 36, '#fff')}</div>
          <div style="padding:7px;border-radius:8px;background:${t.ink};color:#fff;font-size:12px;font-weight:700;text-align:center">Меню</div>`,
          'position:absolute;right:34px;top:34px;width:170px;height:330px',
        )}
      </div>`,
  },
  'landing-3': {
    layout: 'panel',
    caption: 'Чистый код: HTML, CSS, JS',
    art: () => {
      const code = [
        ['#c084fc', '&lt;section', '#7dd3fc', ' class', '#e5e7eb', '=', '#86efac', '"hero"', '#c084fc', '&gt;'],
        ['#e5e7eb', '  ', '#c084fc', '&lt;h1&gt;', '#e5e7eb', 'Свежий кофе каждый день', '#c084fc', '&lt;/h1&gt;'],
        ['#e5e7eb', '  ', '#c084fc', '&lt;a', '#7dd3fc', ' href', '#e5e7eb', '=', '#86efac', '"#menu"', '#c084fc', '&gt;', '#e5e7eb', 'Меню', '#c084fc', '&lt;/a&gt;'],
        ['#c084fc', '&lt;/section&gt;'],
        ['#e5e7eb', ''],
        ['#7dd3fc', '.hero', '#e5e7eb', ' {'],
        ['#e5e7eb', '  display: ', '#fbbf24', 'grid', '#e5e7eb', ';'],
        ['#e5e7eb', '  gap: ', '#fbbf24', 'clamp(16px, 4vw, 48px)', '#e5e7eb', ';'],
        ['#e5e7eb', '}'],
        ['#6b7280', '// PageSpeed: 98 / 100'],
      ];
      return `<div style="height:100%;border-radius:14px;background:#0f172a;padding:26px 28px;font-family:'DejaVu Sans Mono';font-size:18px;line-height:1.75;white-space:pre;overflow:hidden">${code
        .map((row, n) => {
          let html = `<span style="color:#475569">${String(n + 1).padStart(2, ' ')}  </span>`;
          for (let i = 0; i < row.length; i += 2) html += `<span style="color:${row[i]}">${row[i + 1]}</span>`;
          return `<div>${html}</div>`;
        })
        .join('')}</div>`;
    },
  },
  'bot-1': {
    layout: 'hero',
    caption: 'Telegram-бот',
    note: 'Принимает заказы 24/7',
    badge: 'Bot',
    art: (t) =>
      phone(
        `<div style="display:flex;align-items:center;gap:10px;padding-bottom:12px;border-bottom:1px solid #e5e7eb;margin-bottom:14px">
          <div style="width:38px;height:38px;border-radius:50%;background:${t.ink};display:grid;place-items:center">${icon('Bot', 22, '#fff')}</div>
          <div><b style="font-size:15px;color:#0f172a">Пекарня бот</b><div style="font-size:12px;color:#0e7490">в сети</div></div>
        </div>
        <div class="bubble">Здравствуйте! Что хотите заказать?</div>
        <div style="display:grid;grid-template-columns:1fr 1fr;gap:6px;margin:8px 0 10px">
          ${['Хлеб', 'Выпечка', 'Торты', 'Корзина'].map((x) => `<div style="padding:7px 0;border-radius:8px;background:${t.soft};color:${t.ink};font-size:13px;text-align:center;font-weight:700">${x}</div>`).join('')}
        </div>
        <div class="bubble bubble--me">2 круассана и багет</div>
        <div class="bubble">Заказ №128 принят ✓ Будет готов к 9:00</div>`,
        'width:250px;height:440px;transform:rotate(-4deg)',
      ),
  },
  'bot-2': {
    layout: 'panel',
    caption: 'Заказы приходят прямо в чат',
    art: (t) => `
      <div style="display:flex;gap:24px;height:100%">
        <div style="flex:1;background:${t.soft};border-radius:16px;padding:22px;display:flex;flex-direction:column;gap:10px;font-size:16px">
          <div class="bubble" style="max-width:80%">Новый заказ №128</div>
          <div class="bubble" style="max-width:90%">Круассан × 2, багет × 1<br><b>Итого: 420 ₽</b></div>
          <div class="bubble bubble--me">Принять</div>
          <div class="bubble" style="max-width:80%">Клиенту отправлено: «Заказ готовится» ✓</div>
        </div>
        <div style="width:230px;display:flex;flex-direction:column;gap:14px;justify-content:center">
          ${[
            ['ShoppingCart', 'Каталог и корзина'],
            ['CreditCard', 'Оплата онлайн'],
            ['Bell', 'Уведомления'],
            ['Table', 'Выгрузка в таблицу'],
          ]
            .map(([n, x]) => `<div style="display:flex;align-items:center;gap:12px;font-size:17px;color:#0f172a"><span style="width:44px;height:44px;border-radius:12px;background:${t.soft};display:grid;place-items:center">${icon(n as IconName, 24, t.ink)}</span>${x}</div>`)
            .join('')}
        </div>
      </div>`,
  },
  'wordpress-1': {
    layout: 'hero',
    caption: 'Доработка WordPress',
    note: 'Правки, плагины, скорость',
    badge: 'Wrench',
    art: (t) => `
      ${browser(
        `<div style="display:flex;gap:12px">
          <div style="width:70px;border-radius:8px;background:#1e293b;padding:10px 8px;display:grid;gap:10px">${['LayoutDashboard', 'FileText', 'Plug', 'Settings'].map((n) => icon(n as IconName, 22, '#94a3b8')).join('')}</div>
          <div style="flex:1">${lines([70, 95, 85, 60, 90, 75], '#e2e8f0', 10, 11)}</div>
        </div>`,
        'width:320px;transform:rotate(-3deg)',
        'site.ru/wp-admin',
      )}
      <div style="position:absolute;right:6px;bottom:70px;width:110px;height:110px;border-radius:50%;background:${t.glow};display:grid;place-items:center;box-shadow:0 16px 30px rgba(0,0,0,.3)">${icon('Wrench', 56, '#0b1229', 2.2)}</div>`,
  },
  'wordpress-2': {
    layout: 'panel',
    caption: 'Плагины и настройки',
    art: (t) => `
      <div style="display:grid;gap:12px;height:100%;align-content:center">
        ${[
          ['Zap', 'Кэширование страниц', true],
          ['Search', 'SEO-заголовки и карта сайта', true],
          ['Mail', 'Формы обратной связи', true],
          ['Shield', 'Защита от спама', true],
          ['DatabaseBackup', 'Резервные копии', false],
        ]
          .map(
            ([n, x, on]) => `<div style="display:flex;align-items:center;gap:16px;padding:14px 18px;border-radius:14px;background:${t.soft}">
              ${icon(n as IconName, 26, t.ink)}<span style="flex:1;font-size:19px;color:#0f172a">${x}</span>
              <span style="width:54px;height:30px;border-radius:15px;background:${on ? '#10b981' : '#cbd5e1'};position:relative"><i style="position:absolute;top:3px;${on ? 'right' : 'left'}:3px;width:24px;height:24px;border-radius:50%;background:#fff"></i></span>
            </div>`,
          )
          .join('')}
      </div>`,
  },

  // Texts and translations --------------------------------------------------------------------------------
  'copy-1': {
    layout: 'hero',
    caption: 'Продающий текст',
    note: 'Для лендинга и рассылок',
    badge: 'PenLine',
    art: (t) => `
      <div class="card" style="width:300px;height:380px;padding:30px 28px;transform:rotate(3deg)">
        <div style="font-weight:700;font-size:24px;line-height:1.3;color:#1c1917;margin-bottom:18px">Хлеб, который пахнет детством</div>
        ${lines([95, 88, 92, 60], '#f5e6d3', 10, 11)}
        <div style="margin:16px 0 18px">${lines([90, 80, 45], '#f5e6d3', 10, 11)}</div>
        <div style="display:inline-block;padding:12px 24px;border-radius:10px;background:${t.ink};color:#fff;font-weight:700;font-size:17px">Заказать</div>
      </div>`,
  },
  'copy-2': {
    layout: 'panel',
    caption: 'Структура, которая продаёт',
    art: (t) => `
      <div style="display:flex;align-items:center;gap:10px;height:100%">
        ${[
          ['Megaphone', 'Заголовок', 'цепляет'],
          ['Gem', 'Выгоды', 'убеждают'],
          ['MessageSquareQuote', 'Отзывы', 'вызывают доверие'],
          ['MousePointerClick', 'Призыв', 'приводит к заказу'],
        ]
          .map(
            ([n, x, y]) => `<div style="flex:1;height:100%;border-radius:16px;background:${t.soft};padding:20px 12px;text-align:center;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:14px">
              <span style="width:64px;height:64px;border-radius:50%;background:${t.ink};display:grid;place-items:center">${icon(n as IconName, 32, '#fff')}</span>
              <b style="font-size:20px;color:#1c1917">${x}</b><span style="font-size:16px;line-height:1.35;color:#78716c">${y}</span></div>`,
          )
          .join(`<span>${icon('ChevronRight', 28, '#fdba74', 3)}</span>`)}
      </div>`,
  },
  'proofreading-1': {
    layout: 'hero',
    caption: 'Редактура',
    note: 'Вычитка до 10 000 знаков',
    badge: 'SpellCheck',
    art: (t) => `
      <div class="card" style="width:320px;padding:30px 28px;font-size:19px;line-height:1.9;color:#292524;transform:rotate(-3deg)">
        Мы печём <s style="color:#dc2626">самые лутшие</s> <span class="fix">лучшие</span> торты в городе и
        доставляем их <s style="color:#dc2626">во время</s> <span class="fix">вовремя</span>.
        <div style="margin-top:14px">${lines([92, 75], '#f5e6d3', 10, 11)}</div>
        <div style="display:flex;gap:10px;margin-top:8px">
          <span class="chip" style="box-shadow:none;background:#dcfce7;color:#166534;font-size:15px;padding:6px 12px">${icon('Check', 18, '#166534', 3)} Орфография</span>
          <span class="chip" style="box-shadow:none;background:#ffedd5;color:${t.ink};font-size:15px;padding:6px 12px">Стиль</span>
        </div>
      </div>`,
  },
  'translation-1': {
    layout: 'hero',
    caption: 'Перевод',
    note: 'С английского на русский',
    badge: 'Languages',
    art: (t) => `
      <div class="card" style="position:absolute;left:0;top:40px;width:250px;padding:22px;transform:rotate(-5deg)">
        <span class="lang">EN</span>
        <div style="font-size:22px;font-weight:700;margin:12px 0 12px;color:#1c1917">Fresh bread every morning</div>
        ${lines([90, 70], '#f5e6d3', 9, 9)}
      </div>
      <div style="position:absolute;left:140px;top:208px;width:62px;height:62px;border-radius:50%;background:${t.ink};display:grid;place-items:center;z-index:2;box-shadow:0 10px 20px rgba(194,65,12,.35)">${icon('ArrowDown', 32, '#fff', 2.6)}</div>
      <div class="card" style="position:absolute;right:0;top:250px;width:270px;padding:22px;transform:rotate(4deg)">
        <span class="lang" style="background:${t.ink};color:#fff">RU</span>
        <div style="font-size:22px;font-weight:700;margin:12px 0 12px;color:#1c1917">Свежий хлеб каждое утро</div>
        ${lines([90, 70], '#f5e6d3', 9, 9)}
      </div>`,
  },
  'translation-2': {
    layout: 'panel',
    caption: 'Смысл, а не подстрочник',
    art: (t) => {
      const rows = [
        ['It’s raining cats and dogs.', 'Льёт как из ведра.'],
        ['Break a leg!', 'Ни пуха ни пера!'],
        ['Piece of cake.', 'Проще простого.'],
        ['Time is money.', 'Время — деньги.'],
      ];
      return `<div style="display:grid;grid-template-columns:1fr 40px 1fr;gap:14px 10px;align-items:center;height:100%;align-content:center">
        <span class="lang" style="justify-self:start">EN</span><span></span><span class="lang" style="justify-self:start;background:${t.ink};color:#fff">RU</span>
        ${rows.map(([en, ru]) => `<div class="phrase">${esc(en!)}</div><div style="text-align:center">${icon('ArrowRight', 24, t.ink, 2.6)}</div><div class="phrase" style="background:#fff7ed;border-color:#fed7aa;color:#1c1917;font-weight:700">${esc(ru!)}</div>`).join('')}
      </div>`;
    },
  },

  // SEO ---------------------------------------------------------------------------------------------------
  'seo-audit-1': {
    layout: 'hero',
    caption: 'SEO-аудит',
    note: 'С рекомендациями по шагам',
    badge: 'Search',
    art: (t) => `
      <div class="card" style="width:300px;height:300px;padding:26px;transform:rotate(-3deg)">
        <div style="display:flex;align-items:center;gap:18px;margin-bottom:22px">
          <div style="width:110px;height:110px;border-radius:50%;background:conic-gradient(#10b981 0 87%, #e5e7eb 87% 100%);display:grid;place-items:center">
            <div style="width:84px;height:84px;border-radius:50%;background:#fff;display:grid;place-items:center;font-weight:700;font-size:32px;color:#065f46">87</div>
          </div>
          <div style="font-size:16px;color:#374151;line-height:1.5">Оценка<br>сайта</div>
        </div>
        ${[
          ['#10b981', 88],
          ['#10b981', 70],
          ['#f59e0b', 56],
          ['#ef4444', 40],
        ]
          .map(([c, w]) => `<div style="display:flex;align-items:center;gap:10px;margin-bottom:12px"><i style="width:12px;height:12px;border-radius:50%;background:${c}"></i><div style="width:${w}%;height:10px;border-radius:5px;background:#e5e7eb"></div></div>`)
          .join('')}
      </div>
      <div style="position:absolute;right:0;bottom:40px;width:120px;height:120px;border-radius:50%;background:${t.glow};display:grid;place-items:center;box-shadow:0 16px 30px rgba(0,0,0,.3)">${icon('Search', 60, '#052e2b', 2.6)}</div>`,
  },
  'seo-audit-2': {
    layout: 'panel',
    caption: 'Отчёт: видимость и трафик',
    art: (t) => `
      <div style="display:flex;gap:22px;height:100%">
        <div style="width:200px;display:grid;gap:14px">
          ${[
            ['Видимость', '+42%'],
            ['Трафик', '+68%'],
            ['Позиции в топ-10', '124'],
          ]
            .map(([a, b]) => `<div style="border-radius:14px;background:${t.soft};padding:16px 18px"><div style="font-size:15px;color:#4b5563">${a}</div><div style="font-size:32px;font-weight:700;color:#065f46;margin-top:6px">${b}</div></div>`)
            .join('')}
        </div>
        <div style="flex:1;border-radius:14px;background:${t.soft};padding:18px;position:relative">
          <svg viewBox="0 0 400 300" width="100%" height="100%" preserveAspectRatio="none">
            <g stroke="#d1fae5" stroke-width="2">${[60, 120, 180, 240].map((y) => `<line x1="0" x2="400" y1="${y}" y2="${y}"/>`).join('')}</g>
            <path d="M0 260 L50 240 L100 248 L150 205 L200 190 L250 150 L300 120 L350 80 L388 48 L388 300 L0 300 Z" fill="#a7f3d0" opacity=".6"/>
            <path d="M0 260 L50 240 L100 248 L150 205 L200 190 L250 150 L300 120 L350 80 L388 48" fill="none" stroke="#059669" stroke-width="6" stroke-linejoin="round"/>
            <circle cx="388" cy="48" r="10" fill="#059669"/>
          </svg>
        </div>
      </div>`,
  },
  'seo-audit-3': {
    layout: 'panel',
    caption: 'Чек-лист ошибок и задач',
    art: () => `
      <div style="display:grid;grid-template-columns:1fr 1fr;gap:14px;height:100%;align-content:center">
        ${[
          ['Скорость загрузки', 'ok'],
          ['Мета-теги', 'ok'],
          ['Дубли страниц', 'bad'],
          ['Карта сайта', 'ok'],
          ['Битые ссылки', 'bad'],
          ['Мобильная версия', 'ok'],
          ['Микроразметка', 'warn'],
          ['HTTPS', 'ok'],
        ]
          .map(([x, s]) => {
            const [bg, fg, name] = s === 'ok' ? ['#dcfce7', '#15803d', 'Check'] : s === 'bad' ? ['#fee2e2', '#b91c1c', 'X'] : ['#fef3c7', '#b45309', 'TriangleAlert'];
            return `<div style="display:flex;align-items:center;gap:14px;padding:14px 16px;border-radius:14px;border:1px solid #e5e7eb"><span style="width:38px;height:38px;border-radius:50%;background:${bg};display:grid;place-items:center">${icon(name as IconName, 22, fg!, 3)}</span><span style="font-size:18px;color:#111827">${x}</span></div>`;
          })
          .join('')}
      </div>`,
  },
  'semantic-1': {
    layout: 'hero',
    caption: 'Семантическое ядро',
    note: 'Для интернет-магазина',
    badge: 'ListTree',
    art: () => {
      const tags: [string, number][] = [
        ['купить смеситель', 22],
        ['душевая кабина', 18],
        ['ванна акриловая', 20],
        ['унитаз подвесной', 17],
        ['доставка', 15],
        ['цена', 16],
        ['смеситель для кухни', 19],
        ['инсталляция', 16],
        ['отзывы', 14],
        ['раковина', 17],
      ];
      return `<div style="display:flex;flex-wrap:wrap;gap:10px;width:330px;justify-content:center;transform:rotate(-3deg)">
        ${tags.map(([x, s], i) => `<span style="padding:10px 16px;border-radius:999px;font-size:${s}px;background:${i % 3 === 0 ? '#ffffff' : 'rgba(255,255,255,.16)'};color:${i % 3 === 0 ? '#065f46' : '#ffffff'};${i % 3 === 0 ? 'font-weight:700;box-shadow:0 8px 18px rgba(0,0,0,.18)' : 'border:1px solid rgba(255,255,255,.35)'}">${x}</span>`).join('')}
      </div>`;
    },
  },
  'semantic-2': {
    layout: 'panel',
    caption: 'Запросы по группам',
    art: (t) => `
      <div style="height:100%;display:flex;flex-direction:column;justify-content:center;font-size:17px;color:#111827">
        <div style="display:grid;grid-template-columns:1.6fr 1fr 0.8fr;padding:0 16px 12px;color:#6b7280;font-size:15px"><span>Запрос</span><span>Группа</span><span style="text-align:right">Частота</span></div>
        ${[
          ['смеситель для кухни', 'Смесители', '12 400'],
          ['купить смеситель', 'Смесители', '8 900'],
          ['душевая кабина с поддоном', 'Душевые', '5 100'],
          ['ванна акриловая 170', 'Ванны', '3 700'],
          ['унитаз подвесной', 'Унитазы', '3 200'],
          ['раковина в ванную', 'Раковины', '2 600'],
          ['смеситель с термостатом', 'Смесители', '1 900'],
          ['душевой поддон', 'Душевые', '1 400'],
        ]
          .map(([q, g, f], i) => `<div style="display:grid;grid-template-columns:1.6fr 1fr 0.8fr;align-items:center;padding:11px 16px;border-radius:10px;${i % 2 === 0 ? `background:${t.soft}` : ''}"><span>${q}</span><span><span style="padding:4px 10px;border-radius:999px;background:#d1fae5;color:#065f46;font-size:14px">${g}</span></span><b style="text-align:right;font-family:'DejaVu Sans Mono'">${f}</b></div>`)
          .join('')}
      </div>`,
  },

  // SMM ---------------------------------------------------------------------------------------------------
  'content-plan-1': {
    layout: 'hero',
    caption: 'Контент-план',
    note: 'Посты на месяц вперёд',
    badge: 'CalendarDays',
    art: (t) => {
      const marks: Record<number, string> = { 2: '#db2777', 4: '#f59e0b', 7: '#8b5cf6', 9: '#db2777', 11: '#10b981', 14: '#f59e0b', 16: '#db2777', 18: '#8b5cf6', 21: '#10b981', 23: '#db2777', 25: '#f59e0b', 27: '#8b5cf6' };
      return `<div class="card" style="width:320px;padding:22px;transform:rotate(3deg)">
        <div style="display:flex;justify-content:space-between;align-items:center;margin-bottom:14px"><b style="font-size:20px;color:#111827">Март</b>${icon('CalendarDays', 24, t.ink)}</div>
        <div style="display:grid;grid-template-columns:repeat(7, 1fr);gap:6px;font-size:12px;color:#9ca3af;text-align:center;margin-bottom:6px">${['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'].map((d) => `<span>${d}</span>`).join('')}</div>
        <div style="display:grid;grid-template-columns:repeat(7, 1fr);gap:6px">
          ${Array.from({ length: 28 }, (_, i) => `<div style="aspect-ratio:1;border-radius:8px;background:${marks[i] ?? '#f3f4f6'};${marks[i] ? '' : 'opacity:.9'};display:grid;place-items:center;font-size:12px;color:${marks[i] ? '#fff' : '#6b7280'}">${i + 1}</div>`).join('')}
        </div>
      </div>`;
    },
  },
  'content-plan-2': {
    layout: 'panel',
    caption: 'Рубрики и готовые посты',
    art: (t) => `
      <div style="display:flex;gap:18px;height:100%">
        ${[
          ['Польза', 'BookOpen', 'linear-gradient(135deg,#f472b6,#db2777)', 'Пн'],
          ['За кадром', 'Camera', 'linear-gradient(135deg,#fdba74,#f97316)', 'Ср'],
          ['Отзывы', 'Heart', 'linear-gradient(135deg,#c4b5fd,#8b5cf6)', 'Пт'],
        ]
          .map(
            ([x, n, bg, d]) => `<div style="flex:1;border-radius:16px;border:1px solid #f3e8ee;padding:14px;display:flex;flex-direction:column;gap:12px">
              <div style="display:flex;justify-content:space-between;align-items:center"><span style="padding:5px 12px;border-radius:999px;background:${t.soft};color:${t.ink};font-size:14px;font-weight:700">${x}</span><span style="font-size:14px;color:#9ca3af">${d}</span></div>
              <div style="flex:1;border-radius:12px;background:${bg};display:grid;place-items:center">${icon(n as IconName, 56, '#fff')}</div>
              ${lines([95, 70], '#f3e8ee', 9, 8)}
              <div style="display:flex;gap:14px;color:#9ca3af;font-size:14px;align-items:center">${icon('Heart', 18, '#db2777')} 248 ${icon('MessageCircle', 18, '#9ca3af')} 31</div>
            </div>`,
          )
          .join('')}
      </div>`,
  },
  'target-1': {
    layout: 'hero',
    caption: 'Таргет ВКонтакте',
    note: 'Настройка и ведение рекламы',
    badge: 'Target',
    art: (t) => `
      <div style="width:320px;height:320px;border-radius:50%;background:radial-gradient(circle, #ffffff 0 15%, ${t.ink} 15% 30%, #ffffff 30% 45%, ${t.ink} 45% 60%, #ffffff 60% 75%, rgba(255,255,255,.25) 75% 100%);box-shadow:0 24px 50px rgba(0,0,0,.3)"></div>
      <svg style="position:absolute;inset:0" viewBox="0 0 350 460" width="350" height="460">
        <g transform="rotate(-42 175 230)">
          <line x1="175" y1="230" x2="385" y2="230" stroke="#1f2937" stroke-width="8" stroke-linecap="round"/>
          <path d="M345 230 L385 206 L400 206 L365 230 L400 254 L385 254 Z" fill="${t.glow}" stroke="#1f2937" stroke-width="3" stroke-linejoin="round"/>
          <circle cx="175" cy="230" r="9" fill="#1f2937"/>
        </g>
      </svg>
      <div class="chip" style="position:absolute;left:0;bottom:30px">${icon('Users', 22, t.ink)} Точная аудитория</div>`,
  },
  'target-2': {
    layout: 'panel',
    caption: 'Аудитории и сегменты',
    art: (t) => `
      <div style="display:flex;gap:26px;height:100%;align-items:center">
        <div style="width:240px;height:240px;border-radius:50%;background:conic-gradient(${t.ink} 0 38%, #f97316 38% 64%, #fbbf24 64% 84%, #fda4af 84% 100%);display:grid;place-items:center;flex:none">
          <div style="width:150px;height:150px;border-radius:50%;background:#fff;display:grid;place-items:center;text-align:center"><div><b style="font-size:30px;color:#111827">48 000</b><div style="font-size:14px;color:#6b7280">человек</div></div></div>
        </div>
        <div style="flex:1;display:grid;gap:16px">
          ${[
            ['Мамы 25–35', 38, t.ink],
            ['Рядом с магазином', 26, '#f97316'],
            ['Интерес: ремонт', 20, '#fbbf24'],
            ['Похожие на клиентов', 16, '#fda4af'],
          ]
            .map(([x, p, c]) => `<div><div style="display:flex;justify-content:space-between;font-size:17px;color:#111827;margin-bottom:6px"><span>${x}</span><b>${p}%</b></div><div style="height:12px;border-radius:6px;background:#f3f4f6"><div style="width:${(Number(p) / 38) * 100}%;height:100%;border-radius:6px;background:${c}"></div></div></div>`)
            .join('')}
        </div>
      </div>`,
  },
  'target-3': {
    layout: 'panel',
    caption: 'Результат в цифрах',
    art: (t) => `
      <div style="display:grid;grid-template-columns:repeat(3, 1fr);gap:18px;height:100%">
        ${[
          ['MousePointerClick', 'CTR', '2,4%'],
          ['Inbox', 'Заявки', '138'],
          ['Wallet', 'Цена заявки', '210 ₽'],
        ]
          .map(([n, a, b]) => `<div style="border-radius:16px;background:${t.soft};padding:22px;display:flex;flex-direction:column;justify-content:space-between"><span style="width:54px;height:54px;border-radius:14px;background:${t.ink};display:grid;place-items:center">${icon(n as IconName, 28, '#fff')}</span><div><div style="font-size:16px;color:#6b7280">${a}</div><div style="font-size:38px;font-weight:700;color:#111827;margin-top:4px">${b}</div></div></div>`)
          .join('')}
        <div style="grid-column:1 / -1;border-radius:16px;background:${t.soft};padding:16px 22px;display:flex;align-items:flex-end;gap:10px;height:130px">
          ${[30, 42, 38, 55, 50, 68, 74, 70, 86, 100].map((h) => `<div style="flex:1;height:${h}%;border-radius:6px 6px 0 0;background:linear-gradient(${t.ink}, #f97316)"></div>`).join('')}
        </div>
      </div>`,
  },
};

// ---------------------------------------------------------------------------------------------------------
// The page.
// ---------------------------------------------------------------------------------------------------------

function page(design: Design, t: Theme, categoryTitle: string): string {
  const kicker = `<span class="kicker">${design.badge ? icon(design.badge, 20, t.fg) : ''}${esc(categoryTitle)}</span>`;
  const body =
    design.layout === 'hero'
      ? `<div class="copy">${kicker}<h1 class="fit">${caption(design.caption)}</h1>${design.note ? `<p>${esc(design.note)}</p>` : ''}</div>
         <div class="art">${design.art(t)}</div>`
      : `<div class="panel">${design.art(t)}</div>
         <div class="label">${kicker}<span class="fit">${caption(design.caption)}</span></div>`;
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; padding: 0; }
  html, body { width: ${WIDTH}px; height: ${HEIGHT}px; overflow: hidden; }
  body { position: relative; font-family: 'DejaVu Sans', sans-serif; background: ${t.bg}; color: ${t.fg}; -webkit-font-smoothing: antialiased; }
  i { display: block; flex: none; }
  svg { display: block; flex: none; }
  .glow { position: absolute; border-radius: 50%; pointer-events: none; }
  .kicker { flex: none; white-space: nowrap; display: inline-flex; align-items: center; gap: 8px; align-self: flex-start; padding: 8px 14px; border-radius: 999px;
    font-size: 17px; background: ${t.dark ? 'rgba(255,255,255,.16)' : 'rgba(124,45,18,.09)'}; border: 1px solid ${t.dark ? 'rgba(255,255,255,.28)' : 'rgba(124,45,18,.16)'}; }
  .copy { position: absolute; left: 56px; top: 0; bottom: 0; width: 330px; display: flex; flex-direction: column; justify-content: center; gap: 22px; }
  .copy h1 { font-size: 64px; line-height: 1.08; font-weight: 700; letter-spacing: -1px; }
  .copy p { font-size: 22px; line-height: 1.4; opacity: .88; }
  .art { position: absolute; left: 410px; right: 40px; top: 80px; bottom: 60px; display: grid; place-items: center; }
  .panel { position: absolute; left: 44px; right: 44px; top: 44px; height: 426px; padding: 26px; border-radius: 24px; background: #fff; color: #111827;
    box-shadow: 0 24px 60px rgba(0,0,0,.22); }
  .label { position: absolute; left: 48px; right: 48px; bottom: 36px; height: 64px; display: flex; align-items: center; gap: 18px; }
  .label .fit { font-size: 36px; font-weight: 700; white-space: nowrap; }
  .card { background: #fff; border-radius: 20px; box-shadow: 0 24px 50px rgba(0,0,0,.22); color: #111827; }
  .chip { display: inline-flex; align-items: center; gap: 8px; padding: 10px 16px; border-radius: 999px; background: #fff; color: #111827; font-size: 17px; font-weight: 700;
    box-shadow: 0 12px 28px rgba(0,0,0,.22); z-index: 2; }
  .window { border-radius: 14px; background: #fff; box-shadow: 0 24px 50px rgba(0,0,0,.28); overflow: hidden; }
  .window__bar { display: flex; align-items: center; gap: 7px; padding: 11px 14px; background: #f1f5f9; border-bottom: 1px solid #e2e8f0; }
  .window__bar i { width: 11px; height: 11px; border-radius: 50%; }
  .window__bar span { margin-left: 10px; flex: 1; padding: 3px 12px; border-radius: 6px; background: #fff; font-size: 12px; color: #64748b; }
  .window__body { padding: 16px; }
  .phone { padding: 12px; border-radius: 34px; background: #0f172a; box-shadow: 0 24px 50px rgba(0,0,0,.35); }
  .phone__screen { height: 100%; border-radius: 24px; background: #fff; padding: 18px 14px; overflow: hidden; }
  .bubble { align-self: flex-start; max-width: 88%; padding: 9px 12px; border-radius: 14px 14px 14px 4px; background: #f1f5f9; color: #0f172a; font-size: 13px; line-height: 1.4; margin-bottom: 8px; }
  .bubble--me { margin-left: auto; width: fit-content; border-radius: 14px 14px 4px 14px; background: ${t.ink}; color: #fff; }
  .panel .bubble { font-size: 16px; background: #fff; width: fit-content; }
  .panel .bubble--me { margin-left: auto; background: ${t.ink}; }
  .fix { padding: 1px 4px; border-radius: 6px; background: #dcfce7; color: #166534; font-weight: 700; }
  .lang { display: inline-block; padding: 4px 12px; border-radius: 8px; background: #fff7ed; color: ${t.ink}; font-weight: 700; font-size: 15px; letter-spacing: 1px; }
  .phrase { padding: 14px 16px; border-radius: 12px; border: 1px solid #e7e5e4; font-size: 17px; color: #44403c; }
</style></head>
<body>
  <div class="glow" style="width:520px;height:520px;left:-180px;top:-220px;background:radial-gradient(circle, ${t.glow}55, ${t.glow}00 68%)"></div>
  <div class="glow" style="width:620px;height:620px;right:-240px;bottom:-300px;background:radial-gradient(circle, ${t.glow}44, ${t.glow}00 68%)"></div>
  ${body}
  <script>
    // Long captions shrink until they fit their box.
    for (const el of document.querySelectorAll('.fit')) {
      const box = el.parentElement;
      let size = parseFloat(getComputedStyle(el).fontSize);
      const fits = () => {
        const r = el.getBoundingClientRect();
        return r.right <= box.getBoundingClientRect().right + 0.5 && el.scrollWidth <= Math.ceil(r.width) && r.height <= size * 1.1 * 2 + 2;
      };
      while (!fits() && size > 24) { size -= 2; el.style.fontSize = size + 'px'; }
    }
  </script>
</body></html>`;
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  const wanted = new Set(process.argv.slice(2));
  const jobs = DEMO_SERVICES.flatMap(([, category, , , , , , covers]) => covers.map((name) => ({ name, category })));
  const missing = jobs.filter((j) => !DESIGNS[j.name]).map((j) => j.name);
  if (missing.length) throw new Error(`no design for: ${missing.join(', ')}`);
  const unknown = [...wanted].filter((name) => !jobs.some((j) => j.name === name));
  if (unknown.length) throw new Error(`not a cover of DEMO_SERVICES: ${unknown.join(', ')}`);

  await mkdir(DEMO_COVERS_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
  try {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1, locale: 'ru-RU' });
    // Nothing is fetched: a design asking for a web font or a CDN fails loudly instead of looking different later.
    await context.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    const tab = await context.newPage();
    for (const { name, category } of jobs) {
      if (wanted.size && !wanted.has(name)) continue;
      const theme = THEMES[category];
      const categoryTitle = categories.find((c) => c.slug === category)?.title;
      if (!theme || !categoryTitle) throw new Error(`no theme for the category ${category}`);
      await tab.setContent(page(DESIGNS[name]!, theme, categoryTitle), { waitUntil: 'load' });
      await tab.evaluate(() => document.fonts.ready);
      // The best quality that stays within the budget.
      let quality = 84;
      let jpeg = await tab.screenshot({ type: 'jpeg', quality });
      while (jpeg.length > TARGET_BYTES && quality > 56) {
        quality -= 4;
        jpeg = await tab.screenshot({ type: 'jpeg', quality });
      }
      if (jpeg.length > MAX_BYTES) throw new Error(`${name}: ${jpeg.length} bytes even at quality ${quality}`);
      await writeFile(demoCoverPath(name), jpeg);
      console.log(`${name}.jpg  ${(jpeg.length / 1024).toFixed(1)} KB  (quality ${quality})`);
    }
  } finally {
    await browser.close();
  }

  const names = new Set(jobs.map((j) => `${j.name}.jpg`));
  let total = 0;
  for (const file of await readdir(DEMO_COVERS_DIR)) {
    if (!names.has(file)) console.warn(`${file}: not used by DEMO_SERVICES any more, remove it`);
    else total += (await stat(`${DEMO_COVERS_DIR}/${file}`)).size;
  }
  console.log(`${names.size} covers, ${(total / 1024).toFixed(0)} KB in ${DEMO_COVERS_DIR}`);
}

await main();
