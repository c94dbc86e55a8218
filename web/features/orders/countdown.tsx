import { useEffect, useState } from 'react';
import { formatDateTime } from '../../lib/dates.ts';
import { countdown, overdue } from './format.ts';

/** Time left until `to`, refreshed every minute. */
export function Countdown({ to, prefix = 'осталось' }: { to: string | null; prefix?: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const text = countdown(to, now);
  if (!text) return null;
  const late = overdue(to, now);
  return (
    <span className={`order-countdown${late ? ' order-countdown--late' : ''}`} title={to ? formatDateTime(to) : undefined}>
      {late ? text : `${prefix} ${text}`}
    </span>
  );
}
