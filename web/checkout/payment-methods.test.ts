import { describe, expect, it } from 'vitest';
import type { PublicSession } from './api';
import { offeredMethods } from './payment-methods';

const googlePay = { environment: 'TEST' as const, gateway: 'example' as const, gatewayMerchantId: 'exampleGatewayMerchantId' };
const session = (types: Array<'card' | 'google_pay' | 'apple_pay' | 'paypal' | 'venmo' | 'ideal' | 'blik' | 'us_bank_account'>, withGooglePay = true) =>
  ({ payment_method_types: types, processor: { name: 'test', googlePay: withGooglePay ? googlePay : null } }) as unknown as PublicSession;
const on = { cardEnabled: true, googlePayEnabled: true };

describe('offeredMethods', () => {
  it('shows the bank buttons for a session with a local payment method (iDEAL, BLIK…), which has no kill switch of its own', () => {
    expect(offeredMethods(session(['ideal']), on)).toMatchObject({ card: false, banks: true });
    expect(offeredMethods(session(['card', 'blik']), { ...on, cardEnabled: false })).toMatchObject({ card: false, banks: true });
    expect(offeredMethods(session(['card']), on).banks).toBe(false);
    // An ACH bank debit is its own form, not a bank's button.
    expect(offeredMethods(session(['card', 'us_bank_account']), on)).toMatchObject({ card: true, banks: false, bankDebit: true });
    expect(offeredMethods(session(['us_bank_account']), { ...on, cardEnabled: false })).toMatchObject({ card: false, bankDebit: true });
  });

  it('offers what the session asks for while every switch is on', () => {
    expect(offeredMethods(session(['card', 'google_pay']), on)).toEqual({
      card: true,
      googlePay,
      applePay: false,
      paypal: false,
      venmo: false,
      banks: false,
      bankDebit: false,
    });
    expect(offeredMethods(session(['card']), on)).toEqual({
      card: true,
      googlePay: null,
      applePay: false,
      paypal: false,
      venmo: false,
      banks: false,
      bankDebit: false,
    });
  });

  it('google_pay_enabled off removes Google Pay; card_enabled off removes the card form', () => {
    expect(offeredMethods(session(['card', 'google_pay']), { ...on, googlePayEnabled: false })).toEqual({
      card: true,
      googlePay: null,
      applePay: false,
      paypal: false,
      venmo: false,
      banks: false,
      bankDebit: false,
    });
    expect(offeredMethods(session(['card', 'google_pay']), { ...on, cardEnabled: false })).toEqual({
      card: false,
      googlePay,
      applePay: false,
      paypal: false,
      venmo: false,
      banks: false,
      bankDebit: false,
    });
    expect(offeredMethods(session(['card', 'google_pay']), { cardEnabled: false, googlePayEnabled: false })).toEqual({
      card: false,
      googlePay: null,
      applePay: false,
      paypal: false,
      venmo: false,
      banks: false,
      bankDebit: false,
    });
  });

  it('never offers Google Pay when the processor has no Google Pay set-up, nor a method the session did not ask for', () => {
    expect(offeredMethods(session(['card', 'google_pay'], false), on).googlePay).toBeNull();
    expect(offeredMethods(session(['google_pay']), on).card).toBe(false);
  });

  it('offers Apple Pay when the session asks for it, and apple_pay_enabled off takes it away', () => {
    expect(offeredMethods(session(['card', 'apple_pay']), on).applePay).toBe(true);
    expect(offeredMethods(session(['card', 'apple_pay']), { ...on, applePayEnabled: false }).applePay).toBe(false);
    expect(offeredMethods(session(['card']), on).applePay).toBe(false);
  });

  it('offers PayPal and Venmo when the session asks for them, and their kill switches take each away', () => {
    const both = session(['card', 'paypal', 'venmo']);
    expect(offeredMethods(both, on)).toMatchObject({ paypal: true, venmo: true });
    expect(offeredMethods(both, { ...on, paypalEnabled: false })).toMatchObject({ paypal: false, venmo: true });
    expect(offeredMethods(both, { ...on, venmoEnabled: false })).toMatchObject({ paypal: true, venmo: false });
    expect(offeredMethods(session(['card']), on)).toMatchObject({ paypal: false, venmo: false, banks: false, bankDebit: false });
  });
});
