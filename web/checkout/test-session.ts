import type { PublicSession } from './api';

/** An open payment session as the checkout page reads it, for the page's unit tests; `more` sets the rest. */
export function openSession(id: string, more: Record<string, unknown> = {}): PublicSession {
  return {
    id,
    status: 'open',
    livemode: false,
    merchant: { name: 'Test Shop', logo_url: null, accent_color: null },
    currency: 'USD',
    locale: 'en',
    line_items: [],
    amount_total: 1800,
    customer_email: null,
    mode: 'payment',
    ...more,
  } as unknown as PublicSession;
}
