import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isValidBankAccountNumber, isValidRoutingNumber, type UsBankAccountHolderType, type UsBankAccountType } from '../../../src/domain/payments/bank-debits';
import { isValidCustomerEmail } from '../../../src/domain/sessions/customer-email';
import type { PublicSession } from '../api';
import { formatMoney } from '../format';
import type { MessageKey, Translate } from '../i18n';
import type { ProcessorClient } from '../processor-client';
import { reportCheckoutFailure } from '../report';
import type { usePaymentAttempt, WalletForm } from '../use-payment-attempt';
import { useLatest } from '../use-latest';
import { braintreeBankAccountTokenizer, mandateMessageKey, testBankAccountTokenizer, type BankAccountTokenizer } from './bank-debit';

// The form's styles, in the browser only: the server renders this module too (see ApprovalWalletArea.tsx).
if (typeof document !== 'undefined') void import('./bank-debit.css');

export interface BankDebitAreaProps {
  session: PublicSession;
  /** The processor client, once it is up: Braintree's (us-bank-account on its client) or the test processor's. */
  client: ProcessorClient | null;
  t: Translate;
  /** The form cannot show here (braintree-web could not set up us-bank-account). */
  onAbsent: () => void;
  form: WalletForm & Pick<ReturnType<typeof usePaymentAttempt>, 'email' | 'emailRef' | 'touchEmail'>;
}

type Field = 'holderName' | 'routingNumber' | 'accountNumber' | 'accepted';

/**
 * The ACH bank debit form (loaded only when the session offers `us_bank_account`): the account
 * holder's name, routing and account numbers, account type and owner, and the mandate the shopper
 * must accept (of later debits too when the session saves the account: mandateMessageKey). Paying
 * tokenizes the account with the mandate's words, then pays with the nonce as any payment; the
 * payment is `processing` until the bank settles it, and the page says it is confirming it.
 */
export default function BankDebitArea({ session, client, t, form, onAbsent }: BankDebitAreaProps) {
  const id = useId();
  const [tokenizer, setTokenizer] = useState<BankAccountTokenizer | null>(null);
  const [holderName, setHolderName] = useState('');
  const [routingNumber, setRoutingNumber] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [accountType, setAccountType] = useState<UsBankAccountType>('checking');
  const [ownershipType, setOwnershipType] = useState<UsBankAccountHolderType>('personal');
  const [accepted, setAccepted] = useState(false);
  const [wrong, setWrong] = useState<ReadonlySet<Field>>(() => new Set());
  const [error, setError] = useState<MessageKey | null>(null);
  const [tokenizing, setTokenizing] = useState(false);
  const refs = {
    holderName: useRef<HTMLInputElement>(null),
    routingNumber: useRef<HTMLInputElement>(null),
    accountNumber: useRef<HTMLInputElement>(null),
    accepted: useRef<HTMLInputElement>(null),
  };
  const latest = useLatest({ session, onAbsent });

  useEffect(() => {
    if (!client) return;
    if (!client.braintreeClient) {
      setTokenizer(() => testBankAccountTokenizer(latest.current.session.id));
      return;
    }
    let live = true;
    braintreeBankAccountTokenizer(client.braintreeClient).then(
      (made) => {
        if (live) setTokenizer(() => made);
      },
      (failure: unknown) => {
        reportCheckoutFailure('bank_debit', failure);
        if (live) latest.current.onAbsent();
      },
    );
    return () => {
      live = false;
    };
  }, [client, latest]);

  if (!tokenizer) return null;
  const amount = formatMoney(session.amount_total, session.currency, t.lang);
  // The words shown are the words tokenized: a standing authorization when the session saves the account.
  const mandateText = t(mandateMessageKey(session.save_payment_method), { merchant: session.merchant.name, amount });
  const busy = form.processing || tokenizing;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || form.busy.current) return;
    setError(null);
    const details = {
      holderName: holderName.trim(),
      routingNumber: routingNumber.trim(),
      accountNumber: accountNumber.replace(/[\s-]/g, ''),
      accountType,
      ownershipType,
    };
    const found = new Set<Field>();
    if (!details.holderName) found.add('holderName');
    if (!isValidRoutingNumber(details.routingNumber)) found.add('routingNumber');
    if (!isValidBankAccountNumber(details.accountNumber)) found.add('accountNumber');
    if (!accepted) found.add('accepted');
    setWrong(found);
    if (!isValidCustomerEmail(form.email.trim())) {
      form.touchEmail();
      setError('form.fixErrors');
      form.emailRef.current?.focus();
      return;
    }
    const first = (['holderName', 'routingNumber', 'accountNumber', 'accepted'] as const).find((field) => found.has(field));
    if (first) {
      setError('bankDebit.fixDetails');
      refs[first].current?.focus();
      return;
    }
    // The account becomes a nonce with the mandate's words (braintree-web's us-bank-account, or the
    // test endpoint); the account number goes nowhere else.
    setTokenizing(true);
    let nonce: string;
    try {
      nonce = await tokenizer(details, mandateText);
    } catch (failure) {
      reportCheckoutFailure('bank_debit', failure);
      setTokenizing(false);
      setError('bankDebit.failed');
      return;
    }
    setTokenizing(false);
    await form.payWithWallet('us_bank_account', async () => nonce);
  };

  const field = (name: Exclude<Field, 'accepted'>, label: MessageKey, value: string, set: (value: string) => void, extra: Record<string, string>) => (
    <div className={`field${wrong.has(name) ? ' has-error' : ''}`}>
      <label htmlFor={`${id}-${name}`}>{t(label)}</label>
      <div className="field-box">
        <input
          ref={refs[name]}
          id={`${id}-${name}`}
          className="field-input"
          value={value}
          disabled={busy}
          aria-invalid={wrong.has(name)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => set(e.target.value)}
          {...extra}
        />
      </div>
    </div>
  );
  const choice = <V extends string>(name: string, legend: MessageKey, options: Array<[V, MessageKey]>, value: V, set: (value: V) => void) => (
    <fieldset disabled={busy}>
      <legend>{t(legend)}</legend>
      {options.map(([option, label]) => (
        <label key={option} className="choice">
          <input type="radio" name={`${id}-${name}`} value={option} checked={value === option} onChange={() => set(option)} />
          <span>{t(label)}</span>
        </label>
      ))}
    </fieldset>
  );

  return (
    <details className="bank-debit" data-testid="bank-debit">
      <summary>{t('bankDebit.title')}</summary>
      <form onSubmit={submit} noValidate aria-describedby={`${id}-mandate`}>
        <p id={`${id}-error`} role="alert" className={error ? 'notice notice-error' : 'notice-empty'} data-testid="bank-debit-notice">
          {error ? t(error) : ''}
        </p>
        {field('holderName', 'bankDebit.holderName', holderName, setHolderName, { autoComplete: 'name' })}
        {field('routingNumber', 'bankDebit.routingNumber', routingNumber, setRoutingNumber, { inputMode: 'numeric', autoComplete: 'off', maxLength: '9' })}
        {field('accountNumber', 'bankDebit.accountNumber', accountNumber, setAccountNumber, { inputMode: 'numeric', autoComplete: 'off', maxLength: '17' })}
        {choice(
          'type',
          'bankDebit.accountType',
          [
            ['checking', 'bankDebit.checking'],
            ['savings', 'bankDebit.savings'],
          ],
          accountType,
          setAccountType,
        )}
        {choice(
          'owner',
          'bankDebit.ownership',
          [
            ['personal', 'bankDebit.personal'],
            ['business', 'bankDebit.business'],
          ],
          ownershipType,
          setOwnershipType,
        )}
        <p id={`${id}-mandate`} className="mandate" data-testid="bank-debit-mandate">
          {mandateText}
        </p>
        <label className={`accept${wrong.has('accepted') ? ' has-error' : ''}`}>
          <input
            ref={refs.accepted}
            type="checkbox"
            checked={accepted}
            disabled={busy}
            aria-invalid={wrong.has('accepted')}
            onChange={(e) => setAccepted(e.target.checked)}
          />
          <span>{t('bankDebit.accept')}</span>
        </label>
        <button type="submit" className="pay-button" disabled={busy} aria-busy={busy} data-testid="bank-debit-pay">
          {busy ? t('form.processing') : t('bankDebit.pay', { amount })}
        </button>
      </form>
    </details>
  );
}
