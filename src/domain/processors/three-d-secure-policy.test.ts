import { describe, expect, it } from 'vitest';
import { threeDSecurePolicy, toThreeDSecureMode } from './three-d-secure-policy';

describe('threeDSecurePolicy', () => {
  const card = (mode: string, accountRequires: boolean) => threeDSecurePolicy({ mode, accountRequires, paymentMethodType: 'card' });

  it('off never verifies nor requires, even when the account requires 3-D Secure', () => {
    expect(card('off', true)).toEqual({ verifyBeforePaying: false, requireInSale: false, verifyWhenIssuerAsks: false });
    expect(card('off', false)).toEqual({ verifyBeforePaying: false, requireInSale: false, verifyWhenIssuerAsks: false });
  });

  it('when_required follows the account setting and answers the issuer', () => {
    expect(card('when_required', true)).toEqual({ verifyBeforePaying: true, requireInSale: true, verifyWhenIssuerAsks: true });
    expect(card('when_required', false)).toEqual({ verifyBeforePaying: false, requireInSale: false, verifyWhenIssuerAsks: true });
  });

  it('always verifies and requires every card payment', () => {
    expect(card('always', false)).toEqual({ verifyBeforePaying: true, requireInSale: true, verifyWhenIssuerAsks: true });
  });

  it('an unknown flag value behaves as when_required, never as off', () => {
    expect(toThreeDSecureMode('sometimes')).toBe('when_required');
    expect(card('sometimes', true)).toEqual(card('when_required', true));
  });

  it('Google Pay is never verified on the page; the sale requires it only where the account does, unless off', () => {
    const wallet = (mode: string, accountRequires: boolean) => threeDSecurePolicy({ mode, accountRequires, paymentMethodType: 'google_pay' });
    expect(wallet('always', false)).toEqual({ verifyBeforePaying: false, requireInSale: false, verifyWhenIssuerAsks: false });
    expect(wallet('when_required', true)).toMatchObject({ verifyBeforePaying: false, requireInSale: true });
    expect(wallet('off', true)).toMatchObject({ requireInSale: false });
  });
});
