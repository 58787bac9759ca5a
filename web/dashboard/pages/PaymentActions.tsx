import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/permissions';
import { api, DashboardApiError, type Payment, type Role } from '../api';
import { ErrorNote, Field } from '../components';
import { formatMoney, fromMinor, toMinor } from '../format';

type Action = 'capture' | 'void' | 'refund';

const reasons = [
  ['requested_by_customer', 'Requested by the customer'],
  ['duplicate', 'Duplicate payment'],
  ['fraudulent', 'Fraudulent'],
] as const;

/**
 * Capture, void and refund on the payment detail page. Buttons a role may not use are not shown (a
 * courtesy: the server refuses them anyway). A refund asks for confirmation before it runs.
 */
export function PaymentActions({ payment, role, path, onDone }: { payment: Payment; role: Role; path: string; onDone: () => Promise<void> }) {
  const [open, setOpen] = useState<Action | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<string>('requested_by_customer');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const currency = payment.currency.toUpperCase();
  const money = (minor: number) => formatMoney(minor, currency, undefined);
  const refundable = payment.amount_captured - payment.amount_refunded;
  const mayCapture = can(role, 'payments.capture') && payment.status === 'requires_capture';
  const mayRefund = can(role, 'payments.refund') && payment.status === 'succeeded' && refundable > 0;
  if (!mayCapture && !mayRefund && !result) return null;

  const start = (action: Action) => {
    setOpen(action);
    setError(null);
    setResult(null);
    setConfirming(false);
    setAmount(fromMinor(action === 'refund' ? refundable : payment.amount, currency));
  };

  const run = async (action: Action) => {
    setBusy(true);
    setError(null);
    try {
      const minor = Number(toMinor(amount, currency));
      if (action === 'capture') {
        await api('POST', `${path}/capture`, { amount: minor });
        setResult(`Captured ${money(minor)}.`);
      } else if (action === 'void') {
        await api('POST', `${path}/cancel`);
        setResult('Voided: the hold on the card is released and nothing was charged.');
      } else {
        const refund = await api<{ amount: number; status: string }>('POST', `${path}/refunds`, { amount: minor, reason });
        setResult(`Refund of ${money(refund.amount)} ${refund.status}.`);
      }
      setOpen(null);
      await onDone();
    } catch (e) {
      setError(e as DashboardApiError);
      setConfirming(false);
    }
    setBusy(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (open === 'refund' && !confirming) {
      setConfirming(true);
      return;
    }
    if (open) void run(open);
  };
  const minor = Number(toMinor(amount, currency));
  const amountValid = Number.isInteger(minor) && minor >= 1;

  return (
    <section aria-labelledby="actions-title" className="panel">
      <h2 id="actions-title">Actions</h2>
      {result && (
        <p role="status" className="result">
          {result}
        </p>
      )}
      <ErrorNote error={error} />
      <div className="actions">
        {mayCapture && (
          <>
            <button type="button" disabled={busy} onClick={() => start('capture')}>
              Capture…
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => start('void')}>
              Void…
            </button>
          </>
        )}
        {mayRefund && (
          <button type="button" disabled={busy} onClick={() => start('refund')}>
            Refund…
          </button>
        )}
      </div>
      {open && (
        <form onSubmit={submit} className="action-form" aria-label={open === 'refund' ? 'Refund' : open === 'capture' ? 'Capture' : 'Void'}>
          {open !== 'void' && (
            <Field
              id="action-amount"
              label={`Amount (${currency})`}
              hint={open === 'refund' ? `Up to ${money(refundable)} can be refunded.` : `Up to ${money(payment.amount)} was authorized; the rest is released.`}
            >
              <input
                id="action-amount"
                inputMode="decimal"
                value={amount}
                aria-describedby="action-amount-hint"
                disabled={busy || confirming}
                onChange={(e) => setAmount(e.target.value)}
              />
            </Field>
          )}
          {open === 'refund' && (
            <Field id="action-reason" label="Reason">
              <select id="action-reason" value={reason} disabled={busy || confirming} onChange={(e) => setReason(e.target.value)}>
                {reasons.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {open === 'void' && <p>Void this authorization? The shopper is not charged, and it cannot be captured afterwards.</p>}
          {confirming && (
            <p className="confirm" role="alert">
              Refund {money(minor)} to the customer? This cannot be undone.
            </p>
          )}
          <div className="actions">
            <button type="submit" disabled={busy || (open !== 'void' && !amountValid)} aria-busy={busy}>
              {busy
                ? 'Working…'
                : open === 'refund'
                  ? confirming
                    ? 'Confirm refund'
                    : 'Refund'
                  : open === 'capture'
                    ? 'Capture'
                    : 'Void payment'}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => (confirming ? setConfirming(false) : setOpen(null))}>
              {confirming ? 'Back' : 'Cancel'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
