import type { Translate } from './i18n';

const marks: Record<string, { text: string; fill: string }> = {
  visa: { text: 'VISA', fill: '#1a1f71' },
  mastercard: { text: 'MC', fill: '#c2410c' },
  'american-express': { text: 'AMEX', fill: '#1d4ed8' },
  discover: { text: 'DISC', fill: '#9a3412' },
  jcb: { text: 'JCB', fill: '#166534' },
  'diners-club': { text: 'DC', fill: '#334155' },
  unionpay: { text: 'UP', fill: '#991b1b' },
  maestro: { text: 'MAE', fill: '#1e40af' },
};

/** The detected card brand as a small mark, named for screen readers. */
export function BrandIcon({ brand, t }: { brand: string | null; t: Translate }) {
  const mark = brand ? marks[brand] : undefined;
  const key = `brand.${brand}`;
  const name = t(mark && t.has(key) ? key : 'brand.unknown');
  return (
    <span className="brand-icon" data-brand={brand ?? 'unknown'} role="img" aria-label={name}>
      <svg width="40" height="26" viewBox="0 0 40 26" aria-hidden="true" focusable="false">
        <rect width="40" height="26" rx="4" fill={mark?.fill ?? '#e5e7eb'} />
        {mark ? (
          <text x="20" y="17" textAnchor="middle" fontSize="10" fontWeight="700" fill="#fff" fontFamily="system-ui, sans-serif">
            {mark.text}
          </text>
        ) : (
          <rect x="5" y="8" width="30" height="4" rx="1" fill="#9ca3af" />
        )}
      </svg>
    </span>
  );
}
