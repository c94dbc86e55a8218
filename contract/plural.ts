// Russian plural forms, shared by server and web (ADR 046). Apart from text.ts, which the guest's shell carries:
// these are needed by pages and letters that count things, not by the first page a guest opens.

const pluralRules = new Intl.PluralRules('ru');

/**
 * The Russian plural form of a word for `n` (the word only), the one choice of plural forms for server and web:
 * plural(1, 'отзыв', 'отзыва', 'отзывов') → 'отзыв'; 2 → 'отзыва'; 5 → 'отзывов'; 21 → 'отзыв'.
 * Fractions (PluralRules "other") use the `few` form: 1,5 отзыва.
 */
export function plural(n: number, one: string, few: string, many: string): string {
  switch (pluralRules.select(n)) {
    case 'one':
      return one;
    case 'many':
      return many;
    default:
      return few;
  }
}

/** `${n} ${plural(...)}` with the number formatted for ru-RU and a no-break space, e.g. "21 отзыв", "1 500 отзывов". */
export function pluralWithCount(n: number, one: string, few: string, many: string): string {
  return `${n.toLocaleString('ru-RU')}\u00a0${plural(n, one, few, many)}`;
}

/**
 * A number of characters after «от», «до», «не короче», «не длиннее» (the genitive): "1 символа", "21 символа",
 * "5 символов" — for limits the operator sets, where the number is not known in advance.
 */
export const charsAfter = (n: number): string => pluralWithCount(n, 'символа', 'символов', 'символов');
