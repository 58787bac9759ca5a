import { formatMoney } from '../checkout/format';

export { formatMoney };

/** A Unix time as the merchant's browser shows dates. */
export function formatTime(seconds: number | null): string {
  if (seconds === null) return '—';
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000));
}

export const statusLabel = (status: string) => status.replaceAll('_', ' ');
