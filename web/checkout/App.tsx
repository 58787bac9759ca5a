import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, checkoutApi, type PublicSession } from './api';
import { toDecimalString } from '../../src/domain/money';
import { CardFields } from './card-form/CardFields';
import type { CardFieldName } from './card-form/engine';
import { defaultCheckoutFlags, loadCheckoutFlags, recordExposure, type CheckoutFlags, type PayButtonWording } from './flags';
import type { GooglePaymentData, GooglePayProvider } from './google-pay/google-pay';
import { GooglePayArea } from './google-pay/GooglePayArea';
import { createProcessorClient } from './processor-client';
import { reportCheckoutFailure } from './report';
import { formatMoney } from './format';
import { en } from './i18n/en';
import { catalogueFor, errorMessageKey, translator, type MessageKey, type Translate } from './i18n';

type View =
  | { kind: 'loading' }
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

function localeOf(session: PublicSession | null): string | undefined {
  return session?.locale ?? (typeof navigator !== 'undefined' ? navigator.language : undefined);
}

/** The hosted checkout page: `/c/:id` and its receipt `/c/:id/done`. */
export function App({ sessionId, receipt, ofrepUrl = '' }: { sessionId: string; receipt: boolean; ofrepUrl?: string }) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const session = 'session' in view ? view.session : null;
  const locale = localeOf(session);
  const t = useMemo(() => translator(catalogueFor(locale)), [locale]);

  const load = useCallback(async () => {
    try {
      // Flags load beside the session, so they add no round trip before the form appears.
      const [session, flags] = await Promise.all([
        checkoutApi.getSession(sessionId),
        receipt ? defaultCheckoutFlags : loadCheckoutFlags(sessionId, ofrepUrl),
      ]);
      setView(viewFor(session, flags));
    } catch (error) {
      setView(error instanceof ApiError && error.code === 'network' ? { kind: 'unreachable' } : { kind: 'not_found' });
    }
  }, [sessionId, receipt, ofrepUrl]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (locale) document.documentElement.lang = locale;
    if (session) document.title = `${t('page.title')} · ${session.merchant.name}`;
  }, [locale, session, t]);

  const accent = session?.merchant.accent_color;
  const style = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? ({ '--accent': accent } as React.CSSProperties) : undefined;

  return (
    <div className="page" style={style}>
      {session && !session.livemode && (
        <header className="test-banner">
          <strong>{t('page.testMode')}</strong> · {t('page.testModeHint')}
        </header>
      )}
      <main className="layout" aria-busy={view.kind === 'loading'}>
        {view.kind === 'loading' && <p className="loading">{t('page.loading')}</p>}
        {view.kind === 'not_found' && (
          <StatusPanel title={t('state.notFound.title')} body={t('state.notFound.body')} heading="h1" />
        )}
        {view.kind === 'unreachable' && (
          <StatusPanel title={t('page.title')} body={t('error.network')} heading="h1" />
        )}
        {view.kind === 'expired' && (
          <>
            <MerchantHeader session={view.session} />
            <StatusPanel
              title={t('state.expired.title')}
              body={t('state.expired.body')}
              link={view.session.cancel_url ? { href: view.session.cancel_url, text: t('state.back') } : undefined}
            />
          </>
        )}
        {view.kind === 'paid' && <Paid session={view.session} t={t} receipt={receipt} />}
        {view.kind === 'ready' && (
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
  const amount = formatMoney(session.amount_total, session.currency, localeOf(session));
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
  const key = `brand.${brand}` as MessageKey;
  return brand && key in en ? t(key) : t('brand.unknown');
}

function OrderSummary({ session, t }: { session: PublicSession; t: Translate }) {
  const locale = localeOf(session);
  const money = (amount: number) => formatMoney(amount, session.currency, locale);
  return (
    <section className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{t('summary.heading')}</h2>
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
  // Built once per session: the kill switches are read as the page loads.
  const client = useMemo(() => createProcessorClient(session, flags), [session.id]);
  const engine = client.engine;
  const offersSomething = Boolean(engine || client.googlePaySetup || client.unavailable);
  useEffect(() => {
    if (flags.layout.experiment) recordExposure(session.id, 'checkout_layout');
    if (flags.wording.experiment && engine) recordExposure(session.id, 'pay_button_wording');
  }, [session.id, flags, engine]);
  const [cardStatus, setCardStatus] = useState<'loading' | 'ready' | 'failed'>(
    client.unavailable ? 'failed' : engine?.kind === 'hosted-fields' ? 'loading' : 'ready',
  );
  const [email, setEmail] = useState(session.customer_email ?? '');
  const [emailTouched, setEmailTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [notice, setNotice] = useState<Notice>(
    client.unavailable ? { tone: 'error', key: 'processor.unavailable' } : null,
  );
  const busy = useRef(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const amount = formatMoney(session.amount_total, session.currency, localeOf(session));
  const emailValid = EMAIL.test(email.trim());
  const showEmailError = !emailValid && (emailTouched || submitted);
  const cardUsable = Boolean(engine) && cardStatus === 'ready';

  const cardFailed = useCallback((error: unknown) => {
    reportCheckoutFailure('hosted_fields', error);
    setCardStatus('failed');
    setNotice({ tone: 'error', key: 'card.unavailable' });
  }, []);

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
    const authenticated = await client.authenticate({ nonce: token.nonce, bin: token.bin, email: email.trim() }, { issuerAsked });
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
        device_data: await client.deviceData(),
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
      if (type === 'card' && !retriedForIssuer && client.verifiesWhenIssuerAsks && e.declineCode === 'authentication_failed') {
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
      {client.googlePaySetup && (
        <GooglePayArea
          setup={client.googlePaySetup}
          provider={client.googlePay}
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
        {engine && cardStatus !== 'failed' && (
          <div className={cardStatus === 'loading' ? 'card-loading' : undefined} aria-busy={cardStatus === 'loading'}>
            {cardStatus === 'loading' && <p className="field-hint">{t('card.loading')}</p>}
            <CardFields
              engine={engine}
              t={t}
              submitted={submitted}
              onReady={() => setCardStatus('ready')}
              onFailed={cardFailed}
            />
          </div>
        )}
        {engine && (
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
