import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, checkoutApi, type PublicSession } from './api';
import { toDecimalString } from '../../src/domain/shared/money';
import { CardFields } from './card-form/CardFields';
import type { CardFieldName } from './card-form/engine';
import { recordExposure, type CheckoutFlags, type PayButtonWording } from './flags';
import type { GooglePaymentData, GooglePayProvider } from './google-pay/google-pay';
import { GooglePayArea } from './google-pay/GooglePayArea';
import { processorClientFor, processorPlan, type ProcessorClient } from './processor-client';
import type { CheckoutPageData, InitialView } from './page-data';
import { reportCheckoutFailure } from './report';
import { formatMoney } from './format';
import { errorMessageKey, isMessageKey, type MessageKey, type Translate } from './i18n';
import { useTranslator } from './i18n/use-translator';

type View =
  | { kind: 'not_found' }
  | { kind: 'unreachable' }
  | { kind: 'expired'; session: PublicSession }
  | { kind: 'paid'; session: PublicSession }
  | { kind: 'ready'; session: PublicSession; flags: CheckoutFlags };

type Notice = { tone: 'error' | 'info'; key: MessageKey } | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function viewFor(session: PublicSession, flags: CheckoutFlags): View {
  if (session.status === 'expired') return { kind: 'expired', session };
  if (session.status === 'complete') return { kind: 'paid', session };
  return { kind: 'ready', session, flags };
}

const wordingKeys: Record<PayButtonWording, MessageKey> = {
  pay: 'form.pay',
  pay_now: 'form.payNow',
  complete_purchase: 'form.completePurchase',
};

function initialView(view: InitialView, flags: CheckoutFlags): View {
  return view.kind === 'ready' ? { ...view, flags } : view;
}

/**
 * The hosted checkout page: `/c/:id` and its receipt `/c/:id/done`. Rendered on the server from
 * `data` (src/http/checkout-page) and hydrated in the browser from the same data, so the first
 * paint needs no request of its own.
 */
export function App({ data }: { data: CheckoutPageData }) {
  const { sessionId, receipt, flags } = data;
  const [view, setView] = useState<View>(() => initialView(data.view, flags));
  const session = 'session' in view ? view.session : null;
  // The server negotiated the locale (session, then Accept-Language) and inlined its catalogue,
  // which main.tsx primed before hydration: `ready` from the first render, no catalogue request.
  const { t, ready } = useTranslator(session?.locale ?? data.locale);

  /** Reads the session again (it was paid meanwhile, in another tab). */
  const load = useCallback(async () => {
    try {
      setView(viewFor(await checkoutApi.getSession(sessionId), flags));
    } catch (error) {
      setView(error instanceof ApiError && error.code === 'network' ? { kind: 'unreachable' } : { kind: 'not_found' });
    }
  }, [sessionId, flags]);

  useEffect(() => {
    if (!ready) return;
    document.documentElement.lang = t.lang;
    document.documentElement.dir = t.dir;
    document.title = session ? `${t('page.title')} · ${session.merchant.name}` : t('page.title');
  }, [ready, session, t]);

  const accent = session?.merchant.accent_color;
  const style = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? ({ '--accent': accent } as React.CSSProperties) : undefined;

  return (
    <div className="page" style={style}>
      {ready && session && !session.livemode && (
        <header className="test-banner">
          <strong>{t('page.testMode')}</strong> · {t('page.testModeHint')}
        </header>
      )}
      <main className="layout" aria-busy={!ready}>
        {!ready && <p className="loading">{t('page.loading')}</p>}
        {ready && view.kind === 'not_found' && (
          <StatusPanel title={t('state.notFound.title')} body={t('state.notFound.body')} heading="h1" />
        )}
        {ready && view.kind === 'unreachable' && (
          <StatusPanel title={t('page.title')} body={t('error.network')} heading="h1" />
        )}
        {ready && view.kind === 'expired' && (
          <>
            <MerchantHeader session={view.session} />
            <StatusPanel
              title={t('state.expired.title')}
              body={t('state.expired.body')}
              link={view.session.cancel_url ? { href: view.session.cancel_url, text: t('state.back') } : undefined}
            />
          </>
        )}
        {ready && view.kind === 'paid' && <Paid session={view.session} t={t} receipt={receipt} />}
        {ready && view.kind === 'ready' && (
          <>
            <MerchantHeader session={view.session} />
            <div className="columns">
              <OrderSummary session={view.session} t={t} />
              <PaymentForm
                session={view.session}
                flags={view.flags}
                t={t}
                onExpired={() => setView({ kind: 'expired', session: { ...view.session, status: 'expired' } })}
                onAlreadyPaid={load}
              />
            </div>
          </>
        )}
      </main>
    </div>
  );
}

function MerchantHeader({ session }: { session: PublicSession }) {
  return (
    <header className="merchant">
      {session.merchant.logo_url && <img src={session.merchant.logo_url} alt="" className="merchant-logo" />}
      <h1>{session.merchant.name}</h1>
    </header>
  );
}

function StatusPanel(props: {
  title: string;
  body: string;
  link?: { href: string; text: string };
  children?: React.ReactNode;
  /** h1 when the panel is the whole page (no merchant header above it). */
  heading?: 'h1' | 'h2';
}) {
  const Heading = props.heading ?? 'h2';
  return (
    <section className="status-panel" aria-labelledby="status-title">
      <Heading id="status-title">{props.title}</Heading>
      <p>{props.body}</p>
      {props.children}
      {props.link && (
        <a className="button-link" href={props.link.href}>
          {props.link.text}
        </a>
      )}
    </section>
  );
}

function Paid({ session, t, receipt }: { session: PublicSession; t: Translate; receipt: boolean }) {
  const payment = session.payment;
  const amount = formatMoney(session.amount_total, session.currency, t.lang);
  const external = session.redirect_url && !session.redirect_url.includes(`/c/${session.id}/done`);
  return (
    <>
      <MerchantHeader session={session} />
      <StatusPanel
        title={receipt ? t('state.done.title') : t('state.paid.title')}
        body={receipt ? t('state.done.body', { merchant: session.merchant.name }) : t('state.paid.body')}
        link={external ? { href: session.redirect_url!, text: t('state.continue') } : undefined}
      >
        {payment?.last4 && (
          <p className="paid-with">
            {t('state.done.paidWith', {
              amount,
              brand: brandName(payment.brand, t),
              last4: payment.last4,
            })}
          </p>
        )}
      </StatusPanel>
    </>
  );
}

/** A brand as the API names it (`visa`, `amex`) → its name for people, falling back to "Card". */
function brandName(brand: string | null, t: Translate): string {
  const key = `brand.${brand}`;
  return brand && isMessageKey(key) ? t(key) : t('brand.unknown');
}

function OrderSummary({ session, t }: { session: PublicSession; t: Translate }) {
  const money = (amount: number) => formatMoney(amount, session.currency, t.lang);
  return (
    <section className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{t('summary.heading')}</h2>
      <p className="item-count">
        {t('summary.items', { count: session.line_items.reduce((sum, item) => sum + item.quantity, 0) })}
      </p>
      <ul className="line-items">
        {session.line_items.map((item, i) => (
          <li key={i}>
            <span className="item-name">{item.name}</span>
            {item.quantity > 1 && <span className="item-qty">{t('summary.quantity', { quantity: item.quantity })}</span>}
            <span className="item-amount">{money(item.amount)}</span>
          </li>
        ))}
      </ul>
      <p className="total">
        <span>{t('summary.total')}</span>
        <strong data-testid="total">{money(session.amount_total)}</strong>
      </p>
    </section>
  );
}

interface PaymentFormProps {
  session: PublicSession;
  flags: CheckoutFlags;
  t: Translate;
  onExpired: () => void;
  onAlreadyPaid: () => void;
}

function PaymentForm({ session, flags, t, onExpired, onAlreadyPaid }: PaymentFormProps) {
  // What the page offers is decided from the session and flags alone, so the server renders the
  // same form the browser hydrates; the processor's code (card engine, braintree-web) is browser-only
  // and arrives after hydration, from chunks the server asked the browser to preload.
  const plan = useMemo(() => processorPlan(session, flags), [session.id]);
  const [client, setClient] = useState<ProcessorClient | null>(null);
  useEffect(() => {
    let live = true;
    processorClientFor(session, flags).then(
      (created) => {
        if (!live) return;
        setClient(created);
        if (!created.engine) created.warm();
      },
      (error: unknown) => {
        if (!live) return;
        reportCheckoutFailure(plan.card === 'hosted-fields' ? 'braintree_client' : 'unexpected', error);
        setCardStatus('failed');
        setNotice({ tone: 'error', key: 'card.unavailable' });
      },
    );
    return () => {
      live = false;
    };
  }, [session.id]);
  const engine = client?.engine ?? null;
  const offersSomething = Boolean(plan.card || plan.googlePay || plan.unavailable);
  useEffect(() => {
    if (flags.layout.experiment) recordExposure(session.id, 'checkout_layout');
    if (flags.wording.experiment && plan.card) recordExposure(session.id, 'pay_button_wording');
  }, [session.id, flags, plan.card]);
  const [cardStatus, setCardStatus] = useState<'loading' | 'ready' | 'failed'>(plan.unavailable ? 'failed' : 'loading');
  const [email, setEmail] = useState(session.customer_email ?? '');
  const [emailTouched, setEmailTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [notice, setNotice] = useState<Notice>(
    plan.unavailable ? { tone: 'error', key: 'processor.unavailable' } : null,
  );
  const busy = useRef(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const amount = formatMoney(session.amount_total, session.currency, t.lang);
  const emailValid = EMAIL.test(email.trim());
  const showEmailError = !emailValid && (emailTouched || submitted);
  const cardUsable = Boolean(engine) && cardStatus === 'ready';

  const cardFailed = useCallback((error: unknown) => {
    reportCheckoutFailure('hosted_fields', error);
    setCardStatus('failed');
    setNotice({ tone: 'error', key: 'card.unavailable' });
    client?.warm();
  }, [client]);
  const cardReady = useCallback(() => {
    setCardStatus('ready');
    client?.warm();
  }, [client]);

  /** Locks the page, runs one payment attempt, and shows its outcome. */
  const run = async (attempt: () => Promise<Outcome>) => {
    busy.current = true;
    setProcessing(true);
    engine?.setDisabled(true);
    const outcome = await attempt();
    if (outcome === 'leaving') return; // stay locked while the browser leaves
    busy.current = false;
    engine?.setDisabled(false);
    if (emailRef.current) emailRef.current.disabled = false;
    setProcessing(false);
    if (outcome === 'handled') return;
    setNotice({ tone: 'error', key: outcome.key });
    if (outcome.field === 'email') emailRef.current?.focus();
    else if (outcome.field) {
      engine?.setInvalid(outcome.field, true);
      engine?.focus(outcome.field);
    } else noticeRef.current?.focus();
  };

  const pay = async (event: React.FormEvent) => {
    event.preventDefault();
    // The button is disabled too, but a double click can land before React re-renders.
    if (busy.current || !engine || !cardUsable) return;
    setSubmitted(true);
    setNotice(null);
    const card = engine.getState();
    const invalidCard = (['number', 'expiry', 'cvc', 'postalCode'] as const).filter((f) => !card.fields[f].isValid);
    if (!emailValid || invalidCard.length) {
      void engine.tokenize(); // marks every card field for display
      setNotice({ tone: 'error', key: 'form.fixErrors' });
      if (!emailValid) emailRef.current?.focus();
      else engine.focus(invalidCard[0]!);
      return;
    }
    await run(() => attemptPayment(payByCard));
  };

  const payByCard = async (issuerAsked = false): Promise<Outcome | { nonce: string }> => {
    const token = await engine!.tokenize();
    if (!token.ok) {
      if (token.reason === 'invalid') return { key: 'form.fixErrors', field: token.fields[0] };
      throw new ApiError(0, token.code, '', token.declineCode, token.param);
    }
    const authenticated = await client!.authenticate({ nonce: token.nonce, bin: token.bin, email: email.trim() }, { issuerAsked });
    if (!authenticated.ok) return { key: authenticated.key };
    return { nonce: authenticated.nonce };
  };

  const payWithGooglePay = (data: GooglePaymentData, provider: GooglePayProvider) => {
    if (busy.current) return;
    setNotice(null);
    const walletEmail = data.email?.trim();
    if (walletEmail && !email.trim()) setEmail(walletEmail);
    const payerEmail = walletEmail || email.trim();
    void run(() =>
      attemptPayment(async () => ({ nonce: await provider.toNonce(data) }), 'google_pay', payerEmail),
    );
  };

  /** Gets a nonce, pays with it; says what the page should show next. */
  const attemptPayment = async (
    nonceFor: () => Promise<Outcome | { nonce: string }>,
    type: 'card' | 'google_pay' = 'card',
    payerEmail = email.trim(),
    retriedForIssuer = false,
  ): Promise<Outcome> => {
    try {
      const prepared = await nonceFor();
      if (!(typeof prepared === 'object' && 'nonce' in prepared)) return prepared;
      const result = await checkoutApi.pay(session.id, {
        payment_method_type: type,
        nonce: prepared.nonce,
        email: payerEmail,
        device_data: client ? await client.deviceData() : null,
      });
      window.location.assign(result.redirect_url);
      return 'leaving';
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(0, type === 'google_pay' ? 'google_pay' : 'network', '');
      if (e.code === 'checkout_session_expired') {
        onExpired();
        return 'handled';
      }
      if (e.code === 'checkout_session_completed') {
        onAlreadyPaid();
        return 'handled';
      }
      if (e.code === 'google_pay') return { key: 'wallet.unavailable' };
      if (e.code === 'network') return { key: 'error.network' };
      if (e.code === 'parameter_invalid' && e.param === 'email') {
        setEmailTouched(true);
        return { key: 'form.fixErrors', field: 'email' };
      }
      if (type === 'card' && !retriedForIssuer && client?.verifiesWhenIssuerAsks && e.declineCode === 'authentication_failed') {
        // The issuer asks for 3-D Secure: verify on a fresh nonce and retry once in this session.
        return attemptPayment(() => payByCard(true), 'card', payerEmail, true);
      }
      if (type === 'google_pay') return { key: errorMessageKey(e.code, e.declineCode) };
      const field: CardFieldName | undefined =
        e.declineCode === 'incorrect_cvc' || e.param === 'cvc'
          ? 'cvc'
          : e.declineCode === 'incorrect_number' || e.param === 'number'
            ? 'number'
            : e.param === 'exp'
              ? 'expiry'
              : undefined;
      return { key: errorMessageKey(e.code, e.declineCode), field };
    }
  };

  // Wallet buttons (Google Pay), only for the methods offeredMethods lists; the layout experiment
  // puts them before or after the card form.
  const wallets = (
    <div className="wallets" data-testid="wallets">
      {plan.googlePay && (
        <GooglePayArea
          setup={plan.googlePay}
          provider={client?.googlePay ?? null}
          transaction={{
            totalPrice: toDecimalString(session.amount_total, session.currency),
            currencyCode: session.currency.toUpperCase(),
            merchantName: session.merchant.name,
          }}
          disabled={processing}
          t={t}
          onPaymentData={payWithGooglePay}
          onUnavailable={() => setNotice({ tone: 'error', key: 'wallet.unavailable' })}
        />
      )}
    </div>
  );

  return (
    <section className="payment" aria-labelledby="payment-title">
      <h2 id="payment-title">{t('form.heading')}</h2>
      {flags.layout.value === 'wallet_first' && wallets}
      <form
        onSubmit={pay}
        noValidate
        aria-describedby={notice ? 'form-notice' : undefined}
        className={`layout-${flags.layout.value}`}
        data-layout={flags.layout.value}
      >
        <div
          id="form-notice"
          ref={noticeRef}
          tabIndex={-1}
          role="alert"
          className={notice ? `notice notice-${notice.tone}` : 'notice-empty'}
        >
          {notice ? t(notice.key) : ''}
        </div>
        <div className={`field field-email${showEmailError ? ' has-error' : ''}`}>
          <label htmlFor="email">{t('form.email')}</label>
          <div className="field-box">
            <input
              ref={emailRef}
              id="email"
              name="email"
              type="email"
              className="field-input"
              autoComplete="email"
              inputMode="email"
              required
              value={email}
              disabled={processing}
              aria-invalid={showEmailError}
              aria-describedby="email-hint email-error"
              onChange={(e) => setEmail(e.target.value)}
              onBlur={() => setEmailTouched(true)}
            />
          </div>
          <p className="field-hint" id="email-hint">
            {t('form.emailHint')}
          </p>
          <p className="field-error" id="email-error" aria-live="polite">
            {showEmailError ? t('field.email.invalid') : ''}
          </p>
        </div>
        {plan.card && cardStatus !== 'failed' && (
          <div className={cardStatus === 'loading' ? 'card-loading' : undefined} aria-busy={cardStatus === 'loading'}>
            {cardStatus === 'loading' && <p className="field-hint">{t('card.loading')}</p>}
            <CardFields
              engine={engine}
              t={t}
              submitted={submitted}
              onReady={cardReady}
              onFailed={cardFailed}
            />
          </div>
        )}
        {plan.card && (
          <button type="submit" className="pay-button" disabled={processing || !cardUsable} aria-busy={processing}>
            {processing ? t('form.processing') : t(wordingKeys[flags.wording.value], { amount })}
          </button>
        )}
        {!offersSomething && <p className="notice notice-info">{t('form.noMethods')}</p>}
        <p className="secure-note">{t('form.secure')}</p>
      </form>
      {flags.layout.value === 'card_first' && wallets}
    </section>
  );
}

type Outcome = 'leaving' | 'handled' | { key: MessageKey; field?: CardFieldName | 'email' };
