import { useState, type FormEvent } from 'react';
import { can } from '../../../src/domain/team/permissions';
import { api, type DashboardApiError, type Payment, type Role } from '../api';
import { ErrorNote, Field } from '../components';
import { Confirm } from '../Confirm';
import { formatMoney, fromMinor, parseAmount } from '../format';
import { useT } from '../i18n';

type Action = 'capture' | 'void' | 'refund';

const reasons = [
  ['requested_by_customer', 'actions.reason.requestedByCustomer'],
  ['duplicate', 'actions.reason.duplicate'],
  ['fraudulent', 'actions.reason.fraudulent'],
] as const;

/**
 * Capture, void and refund on the payment detail page. Buttons a role may not use are not shown (a
 * courtesy: the server refuses them anyway). The amount is checked against what remains before
 * anything is asked or sent; each of them, none undoable, then asks for a confirmation in the page.
 */
export function PaymentActions({ payment, role, path, onDone }: { payment: Payment; role: Role; path: string; onDone: () => Promise<void> }) {
  const t = useT();
  const [open, setOpen] = useState<Action | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<string>('requested_by_customer');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DashboardApiError | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const currency = payment.currency.toUpperCase();
  const money = (minor: number) => formatMoney(minor, currency, undefined);
  const refundable = payment.amount_captured - payment.amount_refunded;
  const mayCapture = can(role, 'payments.capture') && payment.status === 'requires_capture';
  const mayRefund = can(role, 'payments.refund') && payment.status === 'succeeded' && refundable > 0;
  const mayResend = can(role, 'receipts.resend') && payment.status === 'succeeded';
  if (!mayCapture && !mayRefund && !mayResend && !result) return null;

  // Sends at once: a receipt changes nothing, so there is nothing to confirm.
  const resendReceipt = async () => {
    setOpen(null);
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const sent = await api<{ email: string }>('POST', `${path}/send_receipt`);
      setResult(t('actions.receiptSent', { email: sent.email }));
    } catch (e) {
      setError(e as DashboardApiError);
    }
    setBusy(false);
  };

  const start = (action: Action) => {
    setOpen(action);
    setError(null);
    setResult(null);
    // Voiding takes no amount: the confirmation is all there is to it.
    setConfirming(action === 'void');
    setChecked(false);
    setAmount(fromMinor(action === 'refund' ? refundable : payment.amount, currency));
  };

  const run = async (action: Action) => {
    setBusy(true);
    setError(null);
    try {
      const minor = parseAmount(amount, currency) ?? 0;
      if (action === 'capture') {
        await api('POST', `${path}/capture`, { amount: minor });
        setResult(t('actions.captured', { amount: money(minor) }));
      } else if (action === 'void') {
        await api('POST', `${path}/cancel`);
        setResult(t('actions.voided'));
      } else {
        const refund = await api<{ amount: number; status: string }>('POST', `${path}/refunds`, { amount: minor, reason });
        setResult(t('actions.refundResult', { amount: money(refund.amount), status: refund.status }));
      }
      setOpen(null);
      await onDone();
    } catch (e) {
      setError(e as DashboardApiError);
      setConfirming(false);
    }
    setBusy(false);
  };

  const minor = parseAmount(amount, currency);
  const limit = open === 'refund' ? refundable : payment.amount;
  // What is wrong with the amount, in the payment's currency format; null when it can be sent.
  const amountProblem =
    open === 'void' || open === null
      ? null
      : minor === null
        ? t('actions.amountInvalid', { example: fromMinor(limit, currency) })
        : minor < 1
          ? t('actions.amountTooSmall', { amount: money(1) })
          : minor > limit
            ? open === 'refund'
              ? t('actions.refundTooLarge', { amount: money(limit) })
              : t('actions.captureTooLarge', { amount: money(limit) })
            : null;
  const showProblem = checked && amountProblem !== null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (amountProblem) {
      document.getElementById('action-amount')?.focus();
      return;
    }
    setConfirming(true);
  };

  return (
    <section aria-labelledby="actions-title" className="panel">
      <h2 id="actions-title">{t('actions.title')}</h2>
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
              {t('actions.captureOpen')}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => start('void')}>
              {t('actions.voidOpen')}
            </button>
          </>
        )}
        {mayRefund && (
          <button type="button" disabled={busy} onClick={() => start('refund')}>
            {t('actions.refundOpen')}
          </button>
        )}
        {mayResend && (
          <button type="button" className="secondary" disabled={busy} onClick={() => void resendReceipt()}>
            {t('actions.resendReceipt')}
          </button>
        )}
      </div>
      {open === 'void' && (
        <Confirm
          message={t('actions.voidConfirm')}
          confirmLabel={t('actions.voidPayment')}
          busy={busy}
          onConfirm={() => void run('void')}
          onCancel={() => setOpen(null)}
        />
      )}
      {(open === 'capture' || open === 'refund') && (
        <form onSubmit={submit} className="action-form" aria-label={open === 'refund' ? t('actions.refund') : t('actions.capture')}>
          <Field
            id="action-amount"
            label={t('actions.amount', { currency })}
            hint={open === 'refund' ? t('actions.refundHint', { amount: money(refundable) }) : t('actions.captureHint', { amount: money(payment.amount) })}
          >
            <input
              id="action-amount"
              inputMode="decimal"
              value={amount}
              aria-describedby={showProblem ? 'action-amount-problem action-amount-hint' : 'action-amount-hint'}
              aria-invalid={showProblem}
              disabled={busy || confirming}
              onChange={(e) => setAmount(e.target.value)}
            />
            {showProblem && (
              <p className="field-error" id="action-amount-problem" role="alert">
                {amountProblem}
              </p>
            )}
          </Field>
          {open === 'refund' && (
            <Field id="action-reason" label={t('actions.reason')}>
              <select id="action-reason" value={reason} disabled={busy || confirming} onChange={(e) => setReason(e.target.value)}>
                {reasons.map(([value, label]) => (
                  <option key={value} value={value}>
                    {t(label)}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {confirming ? (
            <Confirm
              message={
                open === 'refund' ? t('actions.refundConfirm', { amount: money(minor ?? 0) }) : t('actions.captureConfirm', { amount: money(minor ?? 0) })
              }
              confirmLabel={open === 'refund' ? t('actions.confirmRefund') : t('actions.confirmCapture')}
              cancelLabel={t('actions.back')}
              busy={busy}
              onConfirm={() => void run(open)}
              onCancel={() => setConfirming(false)}
            />
          ) : (
            <div className="actions">
              <button type="submit" disabled={busy}>
                {open === 'refund' ? t('actions.refund') : t('actions.capture')}
              </button>
              <button type="button" className="secondary" disabled={busy} onClick={() => setOpen(null)}>
                {t('actions.cancel')}
              </button>
            </div>
          )}
        </form>
      )}
    </section>
  );
}
