import { useEffect, useRef, useState } from 'react';
import { isValidCustomerEmail } from '../../../src/domain/sessions/customer-email';
import { toDecimalString } from '../../../src/domain/shared/money';
import type { PublicSession } from '../api';
import type { Translate } from '../i18n';
import type { ProcessorClient } from '../processor-client';
import { reportCheckoutFailure } from '../report';
import type { usePaymentAttempt, WalletForm } from '../use-payment-attempt';
import {
  braintreePayPal,
  braintreeVenmo,
  testApprovalWallet,
  walletNames,
  type ApprovalHandlers,
  type ApprovalWallet,
  type ApprovalWalletProvider,
  type PayPalCheckoutInstance,
  type TestWindowAnswer,
  type VenmoInstance,
} from './approval-wallets';
import { cjs } from '../braintree/module-exports';
import { useLatest } from '../use-latest';

// The buttons' styles, in the browser only: the server renders this module too (the page's first
// paint), and a stylesheet is nothing it can import: the boundary would fail there and the browser
// would have to render it alone (React's error #419 at hydration).
if (typeof document !== 'undefined') void import('./approval-wallets.css');

export interface ApprovalWalletAreaProps {
  wallet: ApprovalWallet;
  session: PublicSession;
  /** The processor client, once it is up: Braintree's (the wallet's component on its client) or the test processor's. */
  client: ProcessorClient | null;
  t: Translate;
  /** The wallet cannot show here (PayPal not linked or not eligible, Venmo off a phone, a failed set-up). */
  onAbsent: () => void;
  form: WalletForm & Pick<ReturnType<typeof usePaymentAttempt>, 'email' | 'emailRef' | 'touchEmail'>;
}

/**
 * The wallet on this page: braintree-web's paypal-checkout or venmo on the Braintree client, or the
 * test window in test mode. Null when it cannot show here (Venmo outside a mobile browser).
 */
export async function approvalWalletProvider(
  wallet: ApprovalWallet,
  client: Pick<ProcessorClient, 'braintreeClient'>,
  session: Pick<PublicSession, 'amount_total' | 'currency'>,
  t: Translate,
): Promise<ApprovalWalletProvider | null> {
  if (!client.braintreeClient) {
    // The test window comes with the first tap (the 3-D Secure test challenge shares it).
    return testApprovalWallet(wallet, async () =>
      (await import('../test-dialog')).testDialog<TestWindowAnswer>(t, t('walletTest.title', { wallet: walletNames[wallet] }), [
        { label: t('walletTest.approve'), value: 'approve' },
        { label: t('walletTest.fail'), value: 'fail' },
        { label: t('walletTest.cancel'), value: null },
      ]),
    );
  }
  const braintreeClient = await client.braintreeClient;
  if (wallet === 'paypal') {
    const instance = (await cjs(await import('braintree-web/paypal-checkout')).create({ client: braintreeClient })) as PayPalCheckoutInstance;
    return braintreePayPal(instance, { amount: toDecimalString(session.amount_total, session.currency), currency: session.currency.toUpperCase() });
  }
  // One payment, not a vaulted account: Venmo's single-use payment context.
  const instance = (await cjs(await import('braintree-web/venmo')).create({ client: braintreeClient, paymentMethodUsage: 'single_use' })) as VenmoInstance;
  return braintreeVenmo(instance);
}

/**
 * The PayPal or Venmo button (loaded only when the session offers it). A tap opens the wallet's
 * window or app (PayPal's own button on Braintree); its approval pays through the same pay endpoint;
 * a cancel charges nothing and leaves the button as it was; a failure says so and charges nothing.
 */
export default function ApprovalWalletArea({ wallet, session, client, t, form, onAbsent }: ApprovalWalletAreaProps) {
  const disabled = form.processing;
  const setNotice = form.setNotice;
  const [provider, setProvider] = useState<ApprovalWalletProvider | null>(null);
  const container = useRef<HTMLDivElement>(null);
  // The wallet's window or app is open: the button shows busy and takes no tap until the wallet
  // answers (a shopper back from Venmo's app before braintree-web reports the cancel would tap for
  // nothing). React renders a tap's state before the next tap, so the disabled button holds off a
  // second one.
  const [opened, setOpened] = useState(false);
  const formRef = useRef(form);
  formRef.current = form;

  const fail = (error: unknown) => {
    reportCheckoutFailure(wallet, error);
    setOpened(false);
    formRef.current.setNotice({ tone: 'error', key: `${wallet}.failed` });
  };
  // The provider is made once per client and wallet, with the session and wording of that moment.
  const latest = useLatest({ session, t, onAbsent, fail });

  useEffect(() => {
    if (!client) return;
    let live = true;
    const { session, t } = latest.current;
    approvalWalletProvider(wallet, client, session, t).then(
      (created) => {
        if (!live) return;
        if (created) setProvider(created);
        else latest.current.onAbsent();
      },
      (error: unknown) => {
        reportCheckoutFailure(wallet, error);
        if (live) latest.current.onAbsent();
      },
    );
    return () => {
      live = false;
    };
  }, [client, wallet, latest]);

  useEffect(() => {
    if (provider?.kind !== 'sdk_button' || !container.current) return;
    const handlers: ApprovalHandlers = {
      approved: async (approval) => {
        await formRef.current.payWithWallet(wallet, async () => approval.nonce, approval.email);
      },
      canceled: () => undefined,
      failed: (error) => latest.current.fail(error),
    };
    provider.render(container.current, handlers).catch((error: unknown) => {
      reportCheckoutFailure(wallet, error);
      setProvider(null);
      latest.current.onAbsent();
    });
  }, [provider, wallet, latest]);

  if (!provider) return null;

  if (provider.kind === 'sdk_button') {
    // PayPal draws its own button here; it cannot be disabled, so it takes no taps while paying.
    return <div className={`wallet-sdk-button${disabled ? ' is-disabled' : ''}`} data-testid={wallet} ref={container} />;
  }

  const start = () => {
    if (disabled || opened || form.busy.current) return;
    // Venmo tells no email: the receipt's address is the one typed, asked for before Venmo opens.
    if (wallet === 'venmo' && !isValidCustomerEmail(form.email.trim())) {
      form.touchEmail();
      setNotice({ tone: 'error', key: 'form.fixErrors' });
      form.emailRef.current?.focus();
      return;
    }
    setNotice(null);
    setOpened(true);
    provider.approve().then(async (approval) => {
      setOpened(false);
      // null: the shopper canceled, nothing was charged; the button is as it was.
      if (approval) await formRef.current.payWithWallet(wallet, async () => approval.nonce, approval.email);
    }, fail);
  };

  const busy = disabled || opened;
  return (
    <div className="wallet-tap" data-testid={wallet}>
      <button type="button" className={`wallet-button wallet-button-${wallet}`} lang={t.lang} disabled={busy} aria-busy={busy} onClick={start}>
        {t(`${wallet}.button`)}
      </button>
    </div>
  );
}
