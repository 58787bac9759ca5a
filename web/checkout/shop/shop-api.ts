import { useEffect, useState } from 'react';
import { base, request, type PublicSession } from '../api';
import type { AddressField } from '../../../src/domain/addresses/entities';

/** An address as the page sends it (Stripe's fields); the server checks it against its country. */
export interface AddressValue {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
}

/** One country's format, as `GET /api/checkout/address-formats/:country` answers (Google's address data). */
export interface AddressFormatView {
  country: string;
  rows: AddressField[][];
  required: AddressField[];
  uppercase: AddressField[];
  postal_code_pattern: string | null;
  postal_code_examples: string[];
  labels: { state: string; city: string; postal_code: string };
  states: Array<{ code: string; name: string }>;
}

/** The shop options' calls: each answers the session as the server priced it again. */
export const shopApi = {
  applyPromotionCode: (sessionId: string, code: string | null) => request<PublicSession>(`${base(sessionId)}/promotion_code`, { body: { code } }),
  chooseShippingRate: (sessionId: string, shippingRate: string) =>
    request<PublicSession>(`${base(sessionId)}/shipping_rate`, { body: { shipping_rate: shippingRate } }),
  setAddresses: (sessionId: string, body: { shipping_details?: { name: string; address: AddressValue }; billing_address?: AddressValue }) =>
    request<PublicSession>(`${base(sessionId)}/addresses`, { body }),
  setQuantity: (sessionId: string, index: number, quantity: number) =>
    request<PublicSession>(`${base(sessionId)}/line_items/${index}/quantity`, { body: { quantity } }),
  addressFormat: (country: string) => request<AddressFormatView>(`/api/checkout/address-formats/${encodeURIComponent(country)}`),
  addressCountries: () => request<{ countries: string[] }>('/api/checkout/address-formats'),
};

/**
 * False in the server's markup and until this part of the page has hydrated, true after. A part
 * loaded on demand hydrates after the rest of the page; its controls stay disabled until then, so
 * a choice made on the server's markup is not undone when React takes it over.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
