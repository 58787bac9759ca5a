/**
 * What is an error worth reporting, and what is just a shopper's bank saying no. Shared by the
 * server's error handler and the checkout page.
 *
 * Declines are results, not errors, with one exception: `processing_error`. Every processor
 * response we map to it (Braintree 2016 and 2025–2067: merchant set-up errors, invalid merchant id,
 * encryption error, inconsistent or invalid transaction data, duplicate transaction) means our
 * integration or the merchant's processor set-up is wrong; no other card would fare better.
 */
export function isOurSideDecline(declineCode: string | undefined | null): boolean {
  return declineCode === 'processing_error';
}

/** The checkout session a request is about, for the `checkout_session` tag. */
export function checkoutSessionOfUrl(url: string): string | null {
  return /^\/(?:api\/checkout\/sessions|c)\/(cs_[A-Za-z0-9]+)/.exec(url)?.[1] ?? null;
}
