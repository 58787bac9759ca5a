import { describe, expect, it } from 'vitest';
import { bankDetails, usBankAccountDetails } from '../domain/payments/entities';
import { bankSnapshot, usBankAccountSnapshot } from '../domain/shared/event-payloads';
import { apiFieldsOrBlank, definePart, field } from '../domain/shared/resource-shape';
import { partFieldsSchema } from './resource-schema';
import { paymentSchema } from './response-schemas';

describe('a part kept in a JSON field: one definition, from which its API fields and schema derive', () => {
  const part = definePart({
    bankName: field.text().nullable(),
    lastDigits: field.text().shownAs('last4'),
    kind: field.oneOf(['checking', 'savings'] as const),
    secret: field.text().internal(),
  });
  const schema = partFieldsSchema('Part', part);

  it('shows each field under its API name, never an internal one; every field null when the part is missing', () => {
    const shown = apiFieldsOrBlank(part, { bankName: null, lastDigits: '6789', kind: 'savings', secret: '000123456789' });
    expect(shown).toEqual({ bank_name: null, last4: '6789', kind: 'savings' });
    expect(apiFieldsOrBlank(part, null)).toEqual({ bank_name: null, last4: null, kind: null });
    expect(schema.parse(shown)).toEqual(shown);
    expect(schema.parse(apiFieldsOrBlank(part, null))).toEqual({ bank_name: null, last4: null, kind: null });
  });

  it('its schema refuses what the definition does not allow: another value, a field it does not show', () => {
    expect(schema.safeParse({ bank_name: null, last4: '6789', kind: 'brokerage' }).success).toBe(false);
    expect(schema.safeParse({ bank_name: null, last4: '6789', kind: 'savings', secret: 'x' }).success).toBe(false);
  });

  it("a payment's bank account and local bank are shown and checked by their definitions", () => {
    const account = usBankAccountSnapshot({
      bankName: 'Chase',
      last4: '6789',
      routingNumber: '011000015',
      accountType: 'checking',
      accountHolderType: 'personal',
    });
    expect(Object.keys(account)).toEqual(usBankAccountDetails.shown.map(([, apiName]) => apiName));
    const bank = bankSnapshot({ name: 'ing', bic: 'INGBNL2A', ibanLast4: '4321' });
    expect(bank).toEqual({ bank: 'ing', bic: 'INGBNL2A', iban_last4: '4321' });
    expect(Object.keys(bank)).toEqual(bankDetails.shown.map(([, apiName]) => apiName));
    const method = paymentSchema.shape.payment_method.unwrap();
    const base = { brand: null, last4: null, exp_month: null, exp_year: null, fingerprint: null, payer_email: null, username: null };
    expect(method.safeParse({ ...base, type: 'us_bank_account', us_bank_account: account }).success).toBe(true);
    expect(method.safeParse({ ...base, type: 'us_bank_account', us_bank_account: usBankAccountSnapshot(null) }).success).toBe(true);
    expect(method.safeParse({ ...base, type: 'ideal', ideal: bank }).success).toBe(true);
    expect(method.safeParse({ ...base, type: 'us_bank_account', us_bank_account: { ...account, account_number: '000123456789' } }).success).toBe(false);
  });
});
