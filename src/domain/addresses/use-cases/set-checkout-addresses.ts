import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { CheckoutSession } from '../../sessions/entities';
import { repriceOpenSession } from '../../pricing/reprice';
import { validAddress, validShippingDetails, type AddressInput } from '../rules';

export interface CheckoutAddresses {
  /** Stripe's `shipping_details`; asked when the session has `shipping_address_collection`. */
  shippingDetails?: { name?: string | null; address: AddressInput } | null;
  /** Stripe's `customer_details.address`; asked when `billing_address_collection` is `required`. */
  billingAddress?: AddressInput | null;
}

/**
 * The shopper's addresses, sent by the page before paying (ADR 0068): each checked against its
 * country's format and the session's allowed countries, stored on the session, and the session
 * priced again (its `dynamic_tax_rates` follow the address).
 */
export async function setCheckoutAddresses(deps: Deps, options: { sessionId: string; addresses: CheckoutAddresses }): Promise<CheckoutSession> {
  const { shippingDetails, billingAddress } = options.addresses;
  return repriceOpenSession(deps, {
    sessionId: options.sessionId,
    param: shippingDetails ? 'shipping_details' : 'billing_address',
    change: async (_tx, session) => {
      const change: Partial<CheckoutSession> = {};
      if (shippingDetails !== undefined) {
        if (!session.shippingAddressCollection) {
          throw new TillpointError('parameter_invalid', 'This checkout does not ask for a shipping address', { param: 'shipping_details' });
        }
        change.shippingDetails =
          shippingDetails && validShippingDetails(shippingDetails, deps.addressFormats, session.shippingAddressCollection.allowedCountries);
      }
      if (billingAddress !== undefined) {
        if (session.billingAddressCollection !== 'required') {
          throw new TillpointError('parameter_invalid', 'This checkout does not ask for a billing address', { param: 'billing_address' });
        }
        change.billingAddress = billingAddress && validAddress(billingAddress, deps.addressFormats, 'billing_address');
      }
      return change;
    },
  });
}

/** Why a session cannot be paid yet for want of an address it asks for; null when it has them. */
export function missingAddress(session: CheckoutSession): TillpointError | null {
  if (session.shippingAddressCollection && !session.shippingDetails) {
    return new TillpointError('parameter_missing', 'Enter a shipping address before paying', { param: 'shipping_details' });
  }
  if (session.billingAddressCollection === 'required' && !session.billingAddress) {
    return new TillpointError('parameter_missing', 'Enter a billing address before paying', { param: 'billing_address' });
  }
  return null;
}
