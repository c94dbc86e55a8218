// Prices are typed in rubles and stored in kopecks (contract/catalog.ts: price 50000 is 500 руб.).

const SPACES = /[\s\u00a0\u202f]/g;

/**
 * Kopecks from what a person typed in rubles: "1 500", "1500,5", "1500.50" → 150050.
 * Empty text is `undefined` (the field was left blank); anything else that is not a non-negative amount with at
 * most two decimals is NaN, so the caller can say "enter a number" rather than "required".
 */
export function rublesToKopecks(text: string): number | undefined {
  const clean = text.replace(SPACES, '').replace(',', '.');
  if (clean === '') return undefined;
  if (!/^\d+(\.\d{0,2})?$/.test(clean)) return Number.NaN;
  const [whole = '0', fraction = ''] = clean.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** The text of a ruble field for an amount in kopecks: 150000 → "1500", 150050 → "1500,50"; null → "". */
export function kopecksToRubles(kopecks: number | null | undefined): string {
  if (kopecks === null || kopecks === undefined || !Number.isFinite(kopecks)) return '';
  const whole = Math.trunc(kopecks / 100);
  const cents = Math.abs(kopecks % 100);
  return cents === 0 ? String(whole) : `${whole},${String(cents).padStart(2, '0')}`;
}

/** A whole number typed into a field: "" → undefined, "7" → 7, "7,5" or "abc" → NaN. */
export function parseWhole(text: string): number | undefined {
  const clean = text.replace(SPACES, '');
  if (clean === '') return undefined;
  return /^\d+$/.test(clean) ? Number(clean) : Number.NaN;
}

/** The text of a whole-number field. */
export const wholeToText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));
