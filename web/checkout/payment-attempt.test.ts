import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { emptyCardFormState, type CardFormState, type TokenizeOutcome } from './card-form/engine';
import { attemptPayment, cardNonce, failureOutcome, firstFieldToFix, walletPayerEmail, type AttemptPorts, type AttemptRequest } from './payment-attempt';

const ports = (pay: AttemptPorts['pay'] = async () => ({ redirect_url: '/c/cs_1/done' }), deviceData: string | null = null) => ({
  pay: vi.fn(pay),
  deviceData: vi.fn(async () => deviceData),
});

const cardRequest = (overrides: Partial<AttemptRequest> = {}): AttemptRequest => ({
  type: 'card',
  email: 'jane@shop.example',
  nonce: vi.fn(async (issuerAsked: boolean) => ({ nonce: issuerAsked ? 'nonce-verified' : 'nonce-1' })),
  retryWhenIssuerAsks: false,
  ...overrides,
});

const declined = (declineCode: string, param?: string) => new ApiError(402, 'card_declined', 'declined', declineCode, param);

describe('attemptPayment', () => {
  it('pays with the nonce, the email and the device data, then leaves for the redirect URL', async () => {
    const p = ports(undefined, 'device-1');
    expect(await attemptPayment(p, cardRequest())).toEqual({ kind: 'leave', url: '/c/cs_1/done' });
    expect(p.pay).toHaveBeenCalledWith({ payment_method_type: 'card', nonce: 'nonce-1', email: 'jane@shop.example', device_data: 'device-1' });
  });

  it('pays a saved card by its id, with its CVC-only nonce when the CVC was asked again; a refused CVC points at the cvc field', async () => {
    const p = ports(async (payment) => {
      if (payment.nonce === 'cvc-wrong') throw declined('incorrect_cvc');
      return { redirect_url: '/done' };
    });
    expect(await attemptPayment(p, cardRequest({ paymentMethod: 'pm_1' }))).toEqual({ kind: 'leave', url: '/done' });
    expect(p.pay).toHaveBeenLastCalledWith(expect.objectContaining({ payment_method: 'pm_1', nonce: undefined }));
    expect(await attemptPayment(p, cardRequest({ paymentMethod: 'pm_1', cvcNonce: 'cvc-right' }))).toEqual({ kind: 'leave', url: '/done' });
    expect(p.pay).toHaveBeenLastCalledWith(expect.objectContaining({ payment_method: 'pm_1', nonce: 'cvc-right' }));
    expect(await attemptPayment(p, cardRequest({ paymentMethod: 'pm_1', cvcNonce: 'cvc-wrong' }))).toMatchObject({
      kind: 'retry',
      key: 'decline.incorrect_cvc',
      field: 'cvc',
    });
  });

  it('does not pay when there is no nonce, and says why', async () => {
    const p = ports();
    const outcome = await attemptPayment(p, cardRequest({ nonce: async () => ({ key: 'form.fixErrors', field: 'cvc' }) }));
    expect(outcome).toEqual({ kind: 'retry', key: 'form.fixErrors', field: 'cvc' });
    expect(p.pay).not.toHaveBeenCalled();
  });

  it('verifies a card the issuer wants authenticated and pays again once, on a fresh nonce', async () => {
    const p = ports(async (payment) => {
      if (payment.nonce === 'nonce-1') throw declined('authentication_failed');
      return { redirect_url: '/done' };
    });
    const request = cardRequest({ retryWhenIssuerAsks: true });
    expect(await attemptPayment(p, request)).toEqual({ kind: 'leave', url: '/done' });
    expect(request.nonce).toHaveBeenNthCalledWith(1, false);
    expect(request.nonce).toHaveBeenNthCalledWith(2, true);
    expect(p.pay).toHaveBeenCalledTimes(2);
  });

  it('retries at most once, and not at all when the processor cannot verify on demand', async () => {
    const always = ports(async () => {
      throw declined('authentication_failed');
    });
    const once = cardRequest({ retryWhenIssuerAsks: true });
    expect(await attemptPayment(always, once)).toEqual({ kind: 'retry', key: 'decline.authentication_failed', field: undefined });
    expect(always.pay).toHaveBeenCalledTimes(2);

    const never = ports(async () => {
      throw declined('authentication_failed');
    });
    expect((await attemptPayment(never, cardRequest())).kind).toBe('retry');
    expect(never.pay).toHaveBeenCalledTimes(1);
  });

  it('never retries a wallet payment for authentication', async () => {
    const p = ports(async () => {
      throw declined('authentication_failed');
    });
    await attemptPayment(p, cardRequest({ type: 'google_pay', retryWhenIssuerAsks: true }));
    expect(p.pay).toHaveBeenCalledTimes(1);
  });

  it('turns a failure to get a nonce into the network error (card) or the wallet error (Google Pay)', async () => {
    const failing = async () => {
      throw new Error('frame gone');
    };
    expect(await attemptPayment(ports(), cardRequest({ nonce: failing }))).toEqual({ kind: 'retry', key: 'error.network' });
    expect(await attemptPayment(ports(), cardRequest({ type: 'google_pay', nonce: failing }))).toEqual({ kind: 'retry', key: 'wallet.unavailable' });
  });
});

describe('failureOutcome', () => {
  const card = (error: unknown) => failureOutcome(error, 'card', { mayVerify: false });

  it('sends an expired or already paid session to its own state', () => {
    expect(card(new ApiError(409, 'checkout_session_expired', ''))).toEqual({ kind: 'expired' });
    expect(failureOutcome(new ApiError(409, 'checkout_session_completed', ''), 'google_pay', { mayVerify: false })).toEqual({ kind: 'already_paid' });
  });

  it('points a refused email at the email field', () => {
    expect(card(new ApiError(400, 'parameter_invalid', '', undefined, 'email'))).toEqual({ kind: 'retry', key: 'form.fixErrors', field: 'email' });
  });

  it('points a decline at the card field it is about', () => {
    expect(card(declined('incorrect_cvc'))).toMatchObject({ field: 'cvc' });
    expect(card(declined('incorrect_number'))).toMatchObject({ field: 'number' });
    expect(card(new ApiError(400, 'parameter_invalid', '', undefined, 'exp'))).toMatchObject({ field: 'expiry' });
    expect(card(new ApiError(400, 'parameter_invalid', '', undefined, 'cvc'))).toMatchObject({ field: 'cvc' });
    expect(card(declined('insufficient_funds'))).toEqual({ kind: 'retry', key: 'decline.insufficient_funds', field: undefined });
  });

  it('gives a real card in test mode the notice alone: the number field gets the focus, not an error of its own', () => {
    const refused = new ApiError(402, 'card_declined', '', 'test_mode_live_card', 'number');
    expect(card(refused)).toEqual({ kind: 'retry', key: 'decline.test_mode_live_card', field: 'number', fieldValid: true });
  });

  it('shows a wallet decline without pointing at a card field', () => {
    expect(failureOutcome(declined('incorrect_cvc'), 'google_pay', { mayVerify: false })).toEqual({ kind: 'retry', key: 'decline.incorrect_cvc' });
    expect(failureOutcome(declined('incorrect_cvc'), 'apple_pay', { mayVerify: false })).toEqual({ kind: 'retry', key: 'decline.incorrect_cvc' });
    // Apple Pay's own failures are the button's (apple-pay/ApplePayArea.tsx): by the attempt, the nonce is in hand.
    expect(failureOutcome(new Error('fetch failed'), 'apple_pay', { mayVerify: false })).toEqual({ kind: 'retry', key: 'error.network' });
    expect(failureOutcome(new Error('sheet failed'), 'google_pay', { mayVerify: false })).toEqual({ kind: 'retry', key: 'wallet.unavailable' });
  });

  it('asks to verify and retry only for a card, only when allowed', () => {
    expect(failureOutcome(declined('authentication_failed'), 'card', { mayVerify: true })).toBe('verify_and_retry');
    expect(failureOutcome(declined('authentication_failed'), 'card', { mayVerify: false })).not.toBe('verify_and_retry');
    expect(failureOutcome(declined('authentication_failed'), 'google_pay', { mayVerify: true })).not.toBe('verify_and_retry');
  });
});

describe('cardNonce', () => {
  const engine = (outcome: TokenizeOutcome) => ({ tokenize: vi.fn(async () => outcome) });
  const authenticating = (result: { ok: true; nonce: string } | { ok: false; key: 'threeDSecure.failed' }) => ({ authenticate: vi.fn(async () => result) });

  it('tokenizes, then authenticates with the BIN and the email', async () => {
    const client = authenticating({ ok: true, nonce: 'verified' });
    const result = await cardNonce(engine({ ok: true, nonce: 'tok', brand: 'visa', last4: '1111', bin: '411111' }), client, 'jane@shop.example', true);
    expect(result).toEqual({ nonce: 'verified' });
    expect(client.authenticate).toHaveBeenCalledWith({ nonce: 'tok', bin: '411111', email: 'jane@shop.example' }, { issuerAsked: true });
  });

  it('points at the first invalid field the engine names', async () => {
    const client = authenticating({ ok: true, nonce: 'x' });
    expect(await cardNonce(engine({ ok: false, reason: 'invalid', fields: ['expiry', 'cvc'] }), client, 'e@x.co', false)).toEqual({
      key: 'form.fixErrors',
      field: 'expiry',
    });
    expect(client.authenticate).not.toHaveBeenCalled();
  });

  it('throws an engine error as the API error it stands for, so the attempt maps it like the server’s', async () => {
    const error = await cardNonce(
      engine({ ok: false, reason: 'error', code: 'card_declined', declineCode: 'incorrect_number' }),
      authenticating({ ok: true, nonce: 'x' }),
      'e@x.co',
      false,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(failureOutcome(error, 'card', { mayVerify: false })).toMatchObject({ field: 'number' });
  });

  it('stops when authentication fails', async () => {
    expect(
      await cardNonce(engine({ ok: true, nonce: 'tok', brand: null, last4: null }), authenticating({ ok: false, key: 'threeDSecure.failed' }), 'e@x.co', false),
    ).toEqual({ key: 'threeDSecure.failed' });
  });
});

describe('firstFieldToFix', () => {
  const complete = (): CardFormState => {
    const state = emptyCardFormState();
    for (const field of Object.values(state.fields)) Object.assign(field, { isEmpty: false, isValid: true });
    return state;
  };

  it('is the email first, then the card fields in order', () => {
    expect(firstFieldToFix(false, complete())).toBe('email');
    const state = complete();
    state.fields.cvc.isValid = false;
    state.fields.postalCode.isValid = false;
    expect(firstFieldToFix(true, state)).toBe('cvc');
    expect(firstFieldToFix(true, emptyCardFormState())).toBe('number');
    expect(firstFieldToFix(true, complete())).toBeNull();
  });
});

describe('walletPayerEmail', () => {
  it('prefers the wallet’s email, else the one typed', () => {
    expect(walletPayerEmail(' wallet@example.com ', 'typed@example.com')).toBe('wallet@example.com');
    expect(walletPayerEmail(undefined, ' typed@example.com ')).toBe('typed@example.com');
    expect(walletPayerEmail('', 'typed@example.com')).toBe('typed@example.com');
  });
});
