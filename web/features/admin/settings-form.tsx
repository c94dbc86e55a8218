import { useState, type FormEvent } from 'react';
import type { Settings } from '#contract/settings';
import { api } from '../../lib/api.ts';
import { toast } from '../../lib/toast-store.ts';
import { AppLink } from '../../components/ui/app-link.tsx';
import { methodDrafts, methodsFromDrafts, PaymentMethodsEditor, type MethodDrafts } from '../payments/index.ts';
import { FormError } from '../../components/ui/form.tsx';

// /admin/settings: every operator setting of contract/settings.ts on one form, grouped, in the units people think
// in (percent for basis points, rubles for kopecks, MiB for bytes). A key this table does not describe (added by
// another module) still shows, by its key, as a number or as JSON, so nothing an operator may change is hidden.

type Kind = 'percentBp' | 'rubles' | 'int' | 'number' | 'mib' | 'text' | 'json';
interface Descriptor {
  group: GroupId;
  label: string;
  kind: Kind;
  unit?: string;
  hint?: string;
}

const GROUPS = [
  ['money', 'Комиссии и вознаграждения'],
  ['orders', 'Заказы'],
  ['payments', 'Оплата и вывод'],
  ['catalog', 'Услуги и отклики'],
  ['reviews', 'Отзывы'],
  ['brand', 'Бренд'],
  ['uploads', 'Файлы'],
  ['notifications', 'Уведомления'],
  ['support', 'Споры и обращения'],
  ['other', 'Прочее'],
] as const;
type GroupId = (typeof GROUPS)[number][0];

const DESCRIPTORS: Partial<Record<keyof Settings, Descriptor>> = {
  'orders.commissionBp': { group: 'money', label: 'Комиссия площадки', kind: 'percentBp', unit: '%', hint: 'С цены выполненного заказа. Действует для заказов, оформленных после изменения.' },
  'referrals.buyerBp': { group: 'money', label: 'Награда за приведённого покупателя', kind: 'percentBp', unit: '%', hint: 'Доля цены заказа, из комиссии' },
  'referrals.sellerBp': { group: 'money', label: 'Награда за приведённого исполнителя', kind: 'percentBp', unit: '%', hint: 'Доля цены заказа, из комиссии' },
  'referrals.months': { group: 'money', label: 'Срок реферальных выплат', kind: 'int', unit: 'мес.', hint: 'С регистрации приведённого' },
  'orders.autoAcceptDays': { group: 'orders', label: 'Автоприёмка сданного заказа через', kind: 'int', unit: 'дн.' },
  'orders.cancelWindowMinutes': { group: 'orders', label: 'Отмена без причины после оплаты в течение', kind: 'int', unit: 'мин' },
  'withdrawals.minAmount': { group: 'payments', label: 'Минимальный вывод', kind: 'rubles', unit: 'руб.' },
  'payments.quoteMinutes': { group: 'payments', label: 'Курс крипто-оплаты держится', kind: 'int', unit: 'мин' },
  'rates.fallbackUSDT': { group: 'payments', label: 'Запасной курс USDT', kind: 'number', unit: 'руб.', hint: 'Пока сервис курсов не ответил; 0 — нет' },
  'rates.fallbackBTC': { group: 'payments', label: 'Запасной курс BTC', kind: 'number', unit: 'руб.', hint: 'Пока сервис курсов не ответил; 0 — нет' },
  'services.minPrice': { group: 'catalog', label: 'Минимальная цена услуги', kind: 'rubles', unit: 'руб.', hint: 'И каждого пакета услуги' },
  'bids.perDay': { group: 'catalog', label: 'Откликов в день на исполнителя', kind: 'int' },
  'bids.minComment': { group: 'catalog', label: 'Минимальная длина отклика', kind: 'int', unit: 'симв.' },
  'reviews.blindDays': { group: 'reviews', label: 'Срок отзывов', kind: 'int', unit: 'дн.', hint: 'Отзывы скрыты, пока не оставлены оба или не кончился срок' },
  'reviews.ratingMonths': { group: 'reviews', label: 'Рейтинг — среднее отзывов за', kind: 'int', unit: 'мес.' },
  'reviews.minText': { group: 'reviews', label: 'Минимальная длина отзыва', kind: 'int', unit: 'симв.' },
  'brand.name': { group: 'brand', label: 'Название', kind: 'text', hint: 'В заголовке страниц («Страница - Название»), в шапке и в письмах' },
  'brand.description': { group: 'brand', label: 'Описание по умолчанию', kind: 'text', hint: 'Для страниц без своего описания (meta description)' },
  'uploads.quotaBytes': { group: 'uploads', label: 'Место на файлы одного пользователя', kind: 'mib', unit: 'МиБ' },
  'uploads.perHour': { group: 'uploads', label: 'Загрузок в час на пользователя', kind: 'int', hint: 'С одного адреса — в десять раз больше' },
  'notifications.unreadLetterDelayMinutes': { group: 'notifications', label: 'Письмо о непрочитанных сообщениях через', kind: 'int', unit: 'мин' },
  'notifications.unreadLetterIntervalMinutes': { group: 'notifications', label: 'Не чаще одного письма о чате в', kind: 'int', unit: 'мин' },
  'disputes.flagDays': { group: 'support', label: 'Спор без решения отмечается через', kind: 'int', unit: 'дн.', hint: 'В очереди споров администратора' },
  'appeals.perDay': { group: 'support', label: 'Обращений в сутки с одного аккаунта', kind: 'int' },
  'appeals.perAddressPerDay': { group: 'support', label: 'Обращений в сутки с одного адреса', kind: 'int' },
};

/** Edited elsewhere: the ways to pay (their table below) and the synonyms (/admin/search-suggestions). */
const OWN_EDITORS = new Set<string>(['payments.methods', 'search.synonyms']);

const MIB = 1024 * 1024;

/** The descriptor of a key, or the fallback for a key this table does not know (shown by its key). */
function describe(key: string, value: unknown): Descriptor {
  const known = DESCRIPTORS[key as keyof Settings];
  if (known) return known;
  const kind: Kind = typeof value === 'number' ? (Number.isInteger(value) ? 'int' : 'number') : typeof value === 'string' ? 'text' : 'json';
  return { group: 'other', label: key, kind };
}

function shown(kind: Kind, value: unknown): string {
  switch (kind) {
    case 'percentBp':
    case 'rubles':
      return String((value as number) / 100);
    case 'mib':
      return String((value as number) / MIB);
    case 'text':
      return String(value);
    case 'json':
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

/** The stored value of a field, or an error to show under it. */
function stored(kind: Kind, text: string): { value: unknown } | { error: string } {
  if (kind === 'text') return { value: text };
  if (kind === 'json') {
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { error: 'Неверный JSON' };
    }
  }
  const n = Number(text.replace(/\s/g, '').replace(',', '.'));
  if (text.trim() === '' || !Number.isFinite(n)) return { error: 'Введите число' };
  switch (kind) {
    case 'percentBp':
    case 'rubles':
      return { value: Math.round(n * 100) };
    case 'mib':
      return { value: Math.round(n * MIB) };
    case 'int':
      return Number.isInteger(n) ? { value: n } : { error: 'Введите целое число' };
    default:
      return { value: n };
  }
}

export function SettingsForm({ settings, onSaved }: { settings: Settings; onSaved: () => void }) {
  const keys = Object.keys(settings).filter((k) => !OWN_EDITORS.has(k));
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(keys.map((k) => [k, shown(describe(k, settings[k as keyof Settings]).kind, settings[k as keyof Settings])])),
  );
  const [methods, setMethods] = useState<MethodDrafts>(() => methodDrafts(settings['payments.methods']));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const local: Record<string, string[]> = {};
    const patch: Record<string, unknown> = {};
    for (const key of keys) {
      const d = describe(key, settings[key as keyof Settings]);
      const result = stored(d.kind, values[key] ?? '');
      if ('error' in result) local[key] = [result.error];
      // Only what changed: a value another admin changed meanwhile is not written back.
      else if (JSON.stringify(result.value) !== JSON.stringify(settings[key as keyof Settings])) patch[key] = result.value;
    }
    const fromDrafts = methodsFromDrafts(methods);
    Object.assign(local, fromDrafts.errors);
    if (JSON.stringify(fromDrafts.rates) !== JSON.stringify(settings['payments.methods'])) patch['payments.methods'] = fromDrafts.rates;
    setErrors(local);
    if (Object.keys(local).length) return void toast('Исправьте отмеченные поля');
    if (!Object.keys(patch).length) return void toast('Ничего не изменилось');
    setBusy(true);
    const res = await api.write('admin.settings.update', { body: patch as never });
    setBusy(false);
    if (res.error) {
      setErrors(res.error.errors ?? { _: [res.error.message] });
      toast(res.error.message);
      return;
    }
    toast('Настройки сохранены', { type: 'success' });
    onSaved();
  }

  const errorOf = (key: string) => Object.entries(errors).find(([k]) => k === key || k.startsWith(`${key}.`))?.[1]?.[0];

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      {GROUPS.map(([group, title]) => {
        const inGroup = keys.filter((k) => describe(k, settings[k as keyof Settings]).group === group);
        if (!inGroup.length && group !== 'payments') return null;
        return (
          <fieldset key={group} id={group} className="settings-form__group card">
            <legend className="settings-form__legend">{title}</legend>
            <div className="settings-form__grid">
              {inGroup.map((key) => {
                const d = describe(key, settings[key as keyof Settings]);
                const error = errorOf(key);
                const id = `setting-${key}`;
                return (
                  <div key={key} className={`field${error ? ' field--invalid' : ''}${d.kind === 'text' || d.kind === 'json' ? ' settings-form__wide' : ''}`}>
                    <label className="field__label" htmlFor={id}>
                      {d.label}
                      {d.unit ? `, ${d.unit}` : ''}
                    </label>
                    <input
                      id={id}
                      name={key}
                      className="input"
                      inputMode={d.kind === 'text' || d.kind === 'json' ? undefined : 'decimal'}
                      value={values[key] ?? ''}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={d.hint ? `${id}-hint` : undefined}
                      onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
                    />
                    {d.hint && (
                      <p id={`${id}-hint`} className="field__hint">
                        {d.hint}
                      </p>
                    )}
                    {error && (
                      <p className="field__error" role="alert">
                        {error}
                      </p>
                    )}
                  </div>
                );
              })}
            </div>
            {group === 'payments' && (
              <>
                <h3 className="settings-form__subtitle">Способы оплаты</h3>
                <PaymentMethodsEditor drafts={methods} onChange={setMethods} errorOf={errorOf} />
              </>
            )}
          </fieldset>
        );
      })}
      <p className="muted">
        Синонимы поиска — на странице <AppLink to="/admin/search-suggestions">Поисковые подсказки</AppLink>.
      </p>
      <FormError message={errors._?.[0]} />
      <div className="settings-form__footer">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Сохранение…' : 'Сохранить настройки'}
        </button>
      </div>
    </form>
  );
}
