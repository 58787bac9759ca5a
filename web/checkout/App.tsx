import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, checkoutApi, type PublicSession } from './api';
import { toDecimalString } from '../../src/domain/shared/money';
import { CardFields } from './card-form/CardFields';
import { fixFieldsMessage } from './card-form/fields-to-fix';
import { recordExposure, type CheckoutFlags, type PayButtonWording } from './flags';
import { GooglePayArea } from './google-pay/GooglePayArea';
import { processorClientFor, type ProcessorClient } from './processor-client';
import { processorPlan } from './processor-plan';
import type { CheckoutPageData, InitialView } from './page-data';
import { reportCheckoutFailure } from './report';
import { formatMoney } from './format';
import type { MessageKey, Translate } from './i18n';
import { MerchantHeader, StatusPanel } from './panels';
import { useTranslator } from './i18n/use-translator';
import { usePaymentAttempt } from './use-payment-attempt';
import { OrderSummary } from './shop/OrderSummary';
import type { CustomFieldsHandle } from './shop/CustomFields';
import type { AddressesHandle } from './shop/AddressForm';

// Loaded only for a session whose customer has saved cards (the size budget of the first load).
const SavedCards = lazy(() => import('./SavedCards'));
// Loaded only for a session that asks for an address (shop/AddressForm.tsx).
const AddressSection = lazy(() => import('./shop/AddressForm'));
// Loaded only for a session with custom fields (shop/CustomFields.tsx).
const CustomFields = lazy(() => import('./shop/CustomFields'));
/** The wallet buttons, by their names in the processor plan. */
const walletKeys = ['googlePay', 'applePay', 'paypal', 'venmo'] as const;
type Wallet = (typeof walletKeys)[number];

// Loaded only for a session that offers Apple Pay (apple-pay/ApplePayArea.tsx), PayPal or Venmo (wallets/ApprovalWalletArea.tsx).
const ApplePayArea = lazy(() => import('./apple-pay/ApplePayArea'));
const ApprovalWalletArea = lazy(() => import('./wallets/ApprovalWalletArea'));
/**
 * The buttons the shopper approves elsewhere, each loaded only for a session that offers it: PayPal's
 * and Venmo's (wallets/ApprovalWalletArea.tsx), and the local payment methods' (iDEAL…, one area for
 * all: local-payment/Banks.tsx), which takes the same props.
 */
const approvalAreas = {
  paypal: ApprovalWalletArea,
  venmo: ApprovalWalletArea,
  banks: lazy(() => import('./local-payment/Banks')) as unknown as typeof ApprovalWalletArea,
  bankDebit: lazy(() => import('./bank-debit/BankDebitArea')) as unknown as typeof ApprovalWalletArea,
};
// The receipt (a paid session's page): loaded only once the session is paid, or about to be.
const loadPaid = () => import('./Paid');
const Paid = lazy(loadPaid);

type View =
  | { kind: 'not_found' }
  | { kind: 'unreachable' }
  | { kind: 'expired'; session: PublicSession }
  | { kind: 'paid'; session: PublicSession }
  | { kind: 'confirming'; session: PublicSession; flags: CheckoutFlags }
  | { kind: 'ready'; session: PublicSession; flags: CheckoutFlags };

function viewFor(session: PublicSession, flags: CheckoutFlags): View {
  if (session.status === 'expired') return { kind: 'expired', session };
  if (session.status === 'complete') return { kind: 'paid', session };
  if (session.payment?.status === 'processing') return { kind: 'confirming', session, flags };
  return { kind: 'ready', session, flags };
}

/** How often a page confirming a payment reads its session again: soon at first, then every 5 s. */
const CONFIRMING_POLL_MS = [1_000, 2_000, 3_000, 5_000];

const wordingKeys: Record<PayButtonWording, MessageKey> = {
  pay: 'form.pay',
  pay_now: 'form.payNow',
  complete_purchase: 'form.completePurchase',
};

function initialView(view: InitialView, flags: CheckoutFlags): View {
  return view.kind === 'ready' || view.kind === 'confirming' ? { ...view, flags } : view;
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
  // A payment is under way: the order (an adjustable quantity) cannot change meanwhile.
  const paying = useState(false);
  // The address forms (a session that asks for an address): Pay saves what they hold.
  const addresses = useRef<AddressesHandle | null>(null);
  const [sameAsShipping, setSameAsShipping] = useState(true);
  // The server negotiated the locale (session, then Accept-Language) and inlined its catalogue,
  // which main.tsx primed before hydration: `ready` from the first render, no catalogue request.
  const { t, ready } = useTranslator(session?.locale ?? data.locale, data.formatLocale);

  /** Reads the session again (it was paid meanwhile, in another tab). */
  const load = useCallback(async () => {
    try {
      setView(viewFor(await checkoutApi.getSession(sessionId), flags));
    } catch (error) {
      setView(error instanceof ApiError && error.code === 'network' ? { kind: 'unreachable' } : { kind: 'not_found' });
    }
  }, [sessionId, flags]);

  // A payment under way (its outcome being recorded): read the session again until it is final,
  // then show what it became — paid, or the form again should the payment have failed.
  const confirming = view.kind === 'confirming' ? view.flags : null;
  useEffect(() => {
    if (!confirming) return;
    // The receipt's code, ready for when the payment is final.
    void loadPaid();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = (attempt: number) => {
      timer = setTimeout(
        async () => {
          let next: View | null = null;
          try {
            next = viewFor(await checkoutApi.getSession(sessionId), confirming);
          } catch {
            // Out of reach for a moment: the next read tells.
          }
          if (stopped) return;
          if (!next || next.kind === 'confirming') return poll(attempt + 1);
          // The payment failed: the page is rendered again with its form, as on a first visit.
          if (next.kind === 'ready') window.location.reload();
          else setView(next);
        },
        CONFIRMING_POLL_MS[Math.min(attempt, CONFIRMING_POLL_MS.length - 1)],
      );
    };
    poll(0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [confirming, sessionId]);

  useEffect(() => {
    if (!ready) return;
    document.documentElement.lang = t.language;
    document.documentElement.dir = t.dir;
    document.title = session ? `${t('page.title')} · ${session.merchant.name}` : t('page.title');
  }, [ready, session, t]);

  const accent = session?.merchant.accent_color;
  const style = accent && /^#[0-9a-fA-F]{6}$/.test(accent) ? ({ '--accent': accent } as React.CSSProperties) : undefined;

  const paymentForm = (current: PublicSession, currentFlags: CheckoutFlags) => (
    <PaymentForm
      session={current}
      flags={currentFlags}
      t={t}
      onExpired={() => setView({ kind: 'expired', session: { ...current, status: 'expired' } })}
      onAlreadyPaid={load}
      processing={paying}
      addresses={addressAsked(current) ? addresses : null}
      postalGiven={current.billing_address_collection === 'required' || (Boolean(current.shipping_address_collection) && sameAsShipping)}
    />
  );
  return (
    <div className="page" style={style}>
      {ready && session && !session.livemode && (
        <header className="test-banner">
          <strong>{t('page.testMode')}</strong> · {t('page.testModeHint')}
        </header>
      )}
      <main className="layout" aria-busy={!ready}>
        {!ready && <p className="loading">{t('page.loading')}</p>}
        {ready && view.kind === 'not_found' && <StatusPanel title={t('state.notFound.title')} body={t('state.notFound.body')} heading="h1" />}
        {ready && view.kind === 'unreachable' && <StatusPanel title={t('page.title')} body={t('error.network')} heading="h1" />}
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
        {ready && view.kind === 'paid' && (
          <Suspense fallback={null}>
            <Paid session={view.session} t={t} receipt={receipt} />
          </Suspense>
        )}
        {ready && view.kind === 'confirming' && (
          <>
            <MerchantHeader session={view.session} />
            <StatusPanel title={t('state.confirming.title')} body={t('state.confirming.body', { merchant: view.session.merchant.name })} live />
          </>
        )}
        {ready && view.kind === 'ready' && (
          <>
            <MerchantHeader session={view.session} back={view.session.cancel_url ? { href: view.session.cancel_url, text: t('state.back') } : undefined} />
            <div className="columns">
              {view.session.mode === 'setup' ? (
                <SetupSummary session={view.session} t={t} />
              ) : (
                <OrderSummary session={view.session} t={t} locked={paying[0]} onSession={(next) => setView(viewFor(next, view.flags))} />
              )}
              {addressAsked(view.session) ? (
                <div className="pay-column">
                  <Suspense fallback={null}>
                    <AddressSection
                      session={view.session}
                      t={t}
                      handle={addresses}
                      sameAsShipping={sameAsShipping}
                      onSameAsShipping={setSameAsShipping}
                      onSession={(next) => setView(viewFor(next, view.flags))}
                    />
                  </Suspense>
                  {paymentForm(view.session, view.flags)}
                </div>
              ) : (
                paymentForm(view.session, view.flags)
              )}
            </div>
          </>
        )}
      </main>
    </div>
  );
}

/** A setup session's side of the page: nothing to pay, a card to save. */
function SetupSummary({ session, t }: { session: PublicSession; t: Translate }) {
  return (
    <section className="summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{t('form.saveCardSubmit')}</h2>
      <p data-testid="setup-note">{t('setup.note', { merchant: session.merchant.name })}</p>
    </section>
  );
}

/** The session asks for an address (shop/AddressForm.tsx): Pay saves it before paying. */
function addressAsked(session: PublicSession): boolean {
  return Boolean(session.shipping_address_collection) || session.billing_address_collection === 'required';
}

interface PaymentFormProps {
  session: PublicSession;
  flags: CheckoutFlags;
  t: Translate;
  onExpired: () => void;
  onAlreadyPaid: () => void;
  /** A payment is under way (App's state: the order is locked meanwhile). */
  processing: [boolean, (processing: boolean) => void];
  /** The address forms, when the session asks for an address. */
  addresses: React.RefObject<AddressesHandle | null> | null;
  /**
   * The billing address the page collects gives the card's postal code, so the card form does not
   * ask it twice: a session asking for a billing address, or for a shipping address that is the billing one.
   */
  postalGiven: boolean;
}

function PaymentForm({ session, flags, t, onExpired, onAlreadyPaid, processing: processingState, addresses, postalGiven }: PaymentFormProps) {
  // What the page offers is decided from the session and flags alone, so the server renders the
  // same form the browser hydrates; the processor's code (card engine, braintree-web) is browser-only
  // and arrives after hydration, from chunks the server asked the browser to preload.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one plan per session: a session read again (new totals) keeps the form it has.
  const plan = useMemo(() => processorPlan(session, flags), [session.id]);
  const [client, setClient] = useState<ProcessorClient | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one processor client per session, as for the plan above.
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
  // The billing address gives the postal code: the card form does not ask it (the code is given at Pay).
  useEffect(() => {
    engine?.setPostalCode(postalGiven ? '' : null);
  }, [engine, postalGiven]);
  useEffect(() => {
    if (flags.layout.experiment) recordExposure(session.id, 'checkout_layout');
    if (flags.wording.experiment && plan.card) recordExposure(session.id, 'pay_button_wording');
  }, [session.id, flags, plan.card]);
  const [cardStatus, setCardStatus] = useState<'loading' | 'ready' | 'failed'>(plan.unavailable ? 'failed' : 'loading');
  // Wallets offered that this browser cannot show: pay.js said no or did not load, no Apple Pay here,
  // PayPal not linked to the account, Venmo off a phone. Each wallet's area says so once it knows.
  const [absent, setAbsent] = useState<ReadonlySet<Wallet>>(() => new Set());
  const walletAbsent = useCallback((wallet: Wallet) => setAbsent((known) => new Set(known).add(wallet)), []);
  // Nothing to pay with: no card form, no bank button, and no wallet button this browser can show.
  const nothingToPay = !plan.unavailable && !plan.card && !plan.banks && !plan.bankDebit && walletKeys.every((wallet) => !plan[wallet] || absent.has(wallet));
  const cardUsable = Boolean(engine) && cardStatus === 'ready';
  const [saveCard, setSaveCard] = useState(false);
  // Saved cards show once the page runs in the browser (the server renders the card form alone);
  // "use another card" goes back to the card form.
  const savedCards = plan.card ? session.saved_payment_methods : [];
  const [offerSaved, setOfferSaved] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration: then the shopper chooses.
  useEffect(() => setOfferSaved(!!savedCards[0]), []);
  const askToSave = plan.card && !offerSaved && session.save_payment_method;
  const customFields = useRef<CustomFieldsHandle | null>(null);
  const form = usePaymentAttempt({
    customFields: session.custom_fields?.length ? customFields : null,
    addresses,
    processing: processingState,
    saveCard,
    sessionId: session.id,
    initialEmail: session.customer_email,
    initialNotice: plan.unavailable ? { tone: 'error', key: 'processor.unavailable' } : null,
    client,
    engine,
    cardUsable,
    onExpired,
    onAlreadyPaid,
  });
  const { notice, setNotice, processing } = form;
  const amount = formatMoney(session.amount_total, session.currency, t.lang);
  // Save card, Start trial, Subscribe, or Pay (in the wording under test).
  const label = t(
    session.mode === 'setup'
      ? 'form.saveCardSubmit'
      : session.subscription
        ? session.subscription.trial_period_days
          ? 'form.startTrial'
          : 'form.subscribe'
        : wordingKeys[flags.wording.value],
    { amount },
  );

  const cardFailed = useCallback(
    (error: unknown) => {
      reportCheckoutFailure('hosted_fields', error);
      setCardStatus('failed');
      setNotice({ tone: 'error', key: 'card.unavailable' });
      client?.warm();
    },
    [client, setNotice],
  );
  const cardReady = useCallback(() => {
    setCardStatus('ready');
    client?.warm();
  }, [client]);

  // Wallet buttons (Apple Pay, PayPal, Venmo, Google Pay), only for the methods offeredMethods lists; the layout experiment
  // puts them before or after the card form.
  const wallets = (
    <div className="wallets" data-testid="wallets">
      {plan.applePay && (
        <Suspense fallback={null}>
          <ApplePayArea session={session} client={client} t={t} form={form} onAbsent={() => walletAbsent('applePay')} />
        </Suspense>
      )}
      {Object.entries(approvalAreas).map(
        ([wallet, Area]) =>
          plan[wallet as keyof typeof approvalAreas] && (
            <Suspense key={wallet} fallback={null}>
              <Area wallet={wallet as 'paypal'} session={session} client={client} t={t} form={form} onAbsent={() => walletAbsent(wallet as 'paypal')} />
            </Suspense>
          ),
      )}
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
          cardOffered={Boolean(plan.card)}
          t={t}
          onPaymentData={(data, provider) => void form.payWithWallet('google_pay', () => provider.toNonce(data), data.email)}
          onUnavailable={() => setNotice({ tone: 'error', key: 'wallet.unavailable' })}
          onAbsent={() => walletAbsent('googlePay')}
        />
      )}
    </div>
  );

  if (nothingToPay) {
    // Said instead of a form with only an email field and no way to pay.
    return (
      <section className="payment" aria-labelledby="payment-title">
        <h2 id="payment-title">{t('form.heading')}</h2>
        <p className="notice notice-info" role="status" data-testid="no-methods">
          {t('form.noMethods')}
        </p>
      </section>
    );
  }

  return (
    <section className="payment" aria-labelledby="payment-title">
      <h2 id="payment-title">{t('form.heading')}</h2>
      {flags.layout.value === 'wallet_first' && wallets}
      <form
        onSubmit={form.payByCard}
        noValidate
        aria-describedby={notice || form.fieldsToFix.length ? 'form-notice' : undefined}
        className={`layout-${flags.layout.value}`}
        data-layout={flags.layout.value}
      >
        <div
          id="form-notice"
          ref={form.noticeRef}
          tabIndex={-1}
          role="alert"
          className={notice ? `notice notice-${notice.tone}` : form.fieldsToFix.length ? 'notice notice-error' : 'notice-empty'}
        >
          {notice ? t(notice.key) : form.fieldsToFix.length ? fixFieldsMessage(form.fieldsToFix, t) : ''}
        </div>
        {session.custom_fields?.length ? (
          <Suspense fallback={null}>
            <CustomFields fields={session.custom_fields} t={t} disabled={processing} handle={customFields} />
          </Suspense>
        ) : null}
        <div className={`field field-email${form.showEmailError ? ' has-error' : ''}`}>
          <label htmlFor="email">{t('form.email')}</label>
          <div className="field-box">
            <input
              ref={form.emailRef}
              id="email"
              name="email"
              type="email"
              className="field-input"
              autoComplete="email"
              inputMode="email"
              required
              value={form.email}
              disabled={processing}
              aria-invalid={form.showEmailError}
              aria-describedby="email-hint email-error"
              onChange={(e) => form.setEmail(e.target.value)}
              onBlur={form.touchEmail}
            />
          </div>
          <p className="field-hint" id="email-hint">
            {t(session.mode === 'setup' ? 'form.emailHintSetup' : 'form.emailHint')}
          </p>
          <p className="field-error" id="email-error" aria-live="polite">
            {form.showEmailError ? t('field.email.invalid') : ''}
          </p>
        </div>
        {offerSaved && (
          <Suspense fallback={null}>
            <SavedCards
              session={session}
              cards={savedCards}
              payLabel={label}
              processing={processing}
              t={t}
              onPay={form.payWithSavedCard}
              onUseAnother={() => setOfferSaved(false)}
            />
          </Suspense>
        )}
        {plan.card && cardStatus !== 'failed' && (
          <div className={cardStatus === 'loading' ? 'card-loading' : undefined} aria-busy={cardStatus === 'loading'} hidden={offerSaved}>
            {cardStatus === 'loading' && <p className="field-hint">{t('card.loading')}</p>}
            <CardFields
              engine={engine}
              t={t}
              submitted={form.submitted}
              flagged={form.fieldsToFix}
              postalGiven={postalGiven}
              onReady={cardReady}
              onFailed={cardFailed}
            />
          </div>
        )}
        {askToSave === 'shopper_choice' && (
          <label className="save-card">
            <input type="checkbox" checked={saveCard} disabled={processing} onChange={(e) => setSaveCard(e.target.checked)} />
            <span>{t('form.saveCard')}</span>
          </label>
        )}
        {/* A subscription always saves the card (`on`): said with what it is saved for. */}
        {askToSave === 'on' && <p className="field-hint">{t(session.subscription ? 'subscription.cardSaved' : 'form.saveCardOn')}</p>}
        {plan.card && !offerSaved && (
          <button type="submit" className="pay-button" disabled={processing || !cardUsable} aria-busy={processing}>
            {processing ? t('form.processing') : label}
          </button>
        )}
        <p className="secure-note">{t('form.secure')}</p>
      </form>
      {flags.layout.value === 'card_first' && wallets}
    </section>
  );
}
