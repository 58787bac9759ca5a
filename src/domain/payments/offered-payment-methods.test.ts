import { describe, expect, it } from 'vitest';
import type { FlagReader } from '../flags/ports';
import type { CheckoutSession } from '../sessions/entities';
import { assertPaymentMethodEnabled } from './offered-payment-methods';

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
