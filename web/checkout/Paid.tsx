import type { PublicSession } from './api';
import { formatMoney } from './format';
import type { Translate } from './i18n';
import { MerchantHeader, StatusPanel } from './panels';

/**
 * A paid session's page: the receipt (`/c/:id/done`), or "already paid". Its own chunk: the page
 * that takes a payment does not carry it before the shopper can type.
 */
export default function Paid({ session, t, receipt }: { session: PublicSession; t: Translate; receipt: boolean }) {
  const payment = session.payment;
  // Nothing was charged: a setup session, or a subscription that started with a trial (the card is saved).
  if (session.mode === 'setup' || session.subscription?.trial_period_days) {
    const onward = session.redirect_url && !session.redirect_url.includes(`/c/${session.id}/done`);
    return (
      <>
        <MerchantHeader session={session} />
        <StatusPanel
          title={t('state.saved.title')}
          body={t('state.saved.body', { merchant: session.merchant.name })}
          link={onward ? { href: session.redirect_url!, text: t('state.continue') } : undefined}
        />
      </>
    );
  }
  const amount = formatMoney(session.amount_total, session.currency, t.lang);
  const external = session.redirect_url && !session.redirect_url.includes(`/c/${session.id}/done`);
  // PayPal, Venmo, the local payment methods (iDEAL…) and a bank debit by their own names (the same in every language).
  const wallet = payment?.type === 'paypal' ? 'PayPal' : payment?.type === 'venmo' ? 'Venmo' : (payment?.method_name ?? null);
  return (
    <>
      <MerchantHeader session={session} />
      <StatusPanel
        title={receipt ? t('state.done.title') : t('state.paid.title')}
        body={receipt ? t('state.done.body', { merchant: session.merchant.name }) : t('state.paid.body')}
        link={external ? { href: session.redirect_url!, text: t('state.continue') } : undefined}
      >
        {wallet && <p className="paid-with">{t('state.done.paidWithWallet', { amount, wallet })}</p>}
        {!wallet && payment?.last4 && (
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
  return brand && t.has(key) ? t(key) : t('brand.unknown');
}
