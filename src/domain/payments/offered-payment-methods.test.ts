import { describe, expect, it } from 'vitest';
import type { FlagReader } from '../flags/ports';
import type { CheckoutSession } from '../sessions/entities';
import { assertPaymentMethodEnabled, offeredPaymentMethods } from './offered-payment-methods';

/** Flags as stored: switches by key; every key asked is logged. */
function flags(switches: Record<string, boolean>) {
  const asked: string[] = [];
  const reader: FlagReader = {
    booleanValue: async (_scope, key, defaultValue) => {
      asked.push(key);
      return switches[key] ?? defaultValue;
    },
    stringValue: async (_scope, _key, defaultValue) => defaultValue,
  };
  return { asked, reader };
}

const session = { id: 'cs_1', accountId: 'acct_1', mode: 'test', paymentMethodTypes: ['card', 'google_pay'] } as unknown as CheckoutSession;

describe('assertPaymentMethodEnabled', () => {
  it('a card payment asks only the card switch, and passes while Google Pay is switched off', async () => {
    const { asked, reader } = flags({ google_pay_enabled: false });
    await assertPaymentMethodEnabled({ flags: reader }, session, 'card');
    expect(asked).toEqual(['card_enabled']);
  });

  it('refuses the method whose switch is off, and the one the session does not offer', async () => {
    const off = flags({ card_enabled: false });
    await expect(assertPaymentMethodEnabled({ flags: off.reader }, session, 'card')).rejects.toMatchObject({ code: 'parameter_invalid' });
    const googlePay = flags({ google_pay_enabled: false });
    await expect(assertPaymentMethodEnabled({ flags: googlePay.reader }, session, 'google_pay')).rejects.toMatchObject({ code: 'parameter_invalid' });
    expect(googlePay.asked).toEqual(['google_pay_enabled']);
    const cardOnly = { ...session, paymentMethodTypes: ['card'] } as CheckoutSession;
    await expect(assertPaymentMethodEnabled({ flags: flags({}).reader }, cardOnly, 'google_pay')).rejects.toMatchObject({ code: 'parameter_invalid' });
  });
});

describe('the wallets beside cards and Google Pay', () => {
  const wallets = { ...session, paymentMethodTypes: ['card', 'apple_pay', 'paypal', 'venmo'] } as CheckoutSession;

  it.each([
    ['apple_pay', 'apple_pay_enabled'],
    ['paypal', 'paypal_enabled'],
    ['venmo', 'venmo_enabled'],
  ] as const)('%s asks only its own switch, and is refused when %s is off', async (type, flag) => {
    const on = flags({});
    await assertPaymentMethodEnabled({ flags: on.reader }, wallets, type);
    expect(on.asked).toEqual([flag]);
    await expect(assertPaymentMethodEnabled({ flags: flags({ [flag]: false }).reader }, wallets, type)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'payment_method_type',
    });
  });

  it('offers each wallet the session asks for until its switch is off', () => {
    const types = ['card', 'google_pay', 'apple_pay', 'paypal', 'venmo'] as const;
    const all = { cardEnabled: true, googlePayEnabled: true };
    expect(offeredPaymentMethods(types, all)).toEqual(types);
    expect(offeredPaymentMethods(types, { ...all, applePayEnabled: false, venmoEnabled: false })).toEqual(['card', 'google_pay', 'paypal']);
    expect(offeredPaymentMethods(types, { ...all, paypalEnabled: false })).toEqual(['card', 'google_pay', 'apple_pay', 'venmo']);
    expect(offeredPaymentMethods(['venmo'], { ...all, venmoEnabled: false })).toEqual([]);
  });
});
