import { statusInfo, type ItemKind } from './status.ts';

/** The state of a service or project as a coloured badge. */
export function StatusBadge({ kind, status }: { kind: ItemKind; status: string }) {
  const { label, tone } = statusInfo(kind, status);
  return <span className={`badge status-badge status-badge--${tone}`}>{label}</span>;
}
