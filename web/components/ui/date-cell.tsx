import { type DateInput, formatDate, formatShortDate } from '../../lib/dates.ts';

/**
 * A table's date cell: "05.03.2026" on one line (the long form, "5 марта 2026 г.", took three lines of a column at
 * 1,280 px), with the long form on hover. Below 900 px the table turns into cards and `label` heads the cell.
 */
export function DateCell({ label, date }: { label: string; date: DateInput }) {
  return (
    <td data-label={label} className="table__date" title={formatDate(date)}>
      {formatShortDate(date)}
    </td>
  );
}
