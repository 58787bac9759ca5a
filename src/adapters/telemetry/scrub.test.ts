import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTERED, luhnValid, scrubEnvelope, scrubText, scrubValue } from './scrub';

/** A Luhn-valid number of 12–19 digits: random body, computed check digit. */
const luhnNumber = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 18 }).map((body) => {
  for (let check = 0; check <= 9; check++) {
    const candidate = body.join('') + check;
    if (luhnValid(candidate)) return candidate;
  }
  throw new Error('unreachable: one check digit always works');
});

const separator = fc.constantFrom('', ' ', '-', '.', '%20', '+', ' - ');

/** The number as a person, a form or a URL might write it: groups of 4 (or random sizes) joined by one separator. */
const written = fc
  .tuple(luhnNumber, separator, fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }), fc.boolean())
  .map(([digits, sep, sizes, fours]) => {
    const groups: string[] = [];
    let at = 0;
    let g = 0;
    while (at < digits.length) {
      const size = fours ? 4 : sizes[g++ % sizes.length]!;
      groups.push(digits.slice(at, at + size));
      at += size;
    }
    return { digits, text: groups.join(sep) };
  });

/** Where the number sits: plain text, a JSON body, a URL query, a log line. */
const embedded = fc
  .tuple(written, fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), fc.constantFrom('text', 'json', 'url', 'glued'))
  .map(([{ digits, text }, before, after, where]) => {
    switch (where) {
      case 'json':
        return { digits, value: JSON.stringify({ note: `${before}${text}${after}`, items: [text] }) };
      case 'url':
        return { digits, value: `https://shop.example/pay?card=${text}&next=${encodeURIComponent(before)}` };
      case 'glued':
        return { digits, value: `ref${text}x${after}` };
      default:
        return { digits, value: `${before} ${text} ${after}` };
    }
  });

const digitsOnly = (s: string) => s.replace(/\D/g, '');

describe('scrubText', () => {
  it('removes every Luhn-valid number in any format and any surrounding', () => {
    fc.assert(
      fc.property(embedded, ({ digits, value }) => {
        const out = scrubText(value);
        expect(out).not.toContain(digits);
        // Even with every separator dropped, the digits are gone.
        expect(digitsOnly(out)).not.toContain(digits);
      }),
      { numRuns: 2000 },
    );
  });

  it('masks the test cards in the forms shoppers type them', () => {
    expect(scrubText('card 4111 1111 1111 1111 declined')).toBe('card **** **** **** **** declined');
    expect(scrubText('4111-1111-1111-1111')).not.toMatch(/\d/);
    expect(scrubText('{"number":"378282246310005"}')).not.toContain('378282246310005');
  });

  it('keeps ordinary numbers: amounts, dates, short ids and non-Luhn runs', () => {
    expect(scrubText('Pay $36.00 on 2026-06-01, order 1042')).toBe('Pay $36.00 on 2026-06-01, order 1042');
    // 12 digits that fail Luhn, and 11 digits (too short for a card) pass untouched.
    expect(luhnValid('411111111112')).toBe(false);
    expect(scrubText('call 411111111112 or 41111111111')).toBe('call 411111111112 or 41111111111');
  });

  it('removes emails, nonces, keys, webhook secrets, bearer tokens and CVCs', () => {
    const text =
      'shopper@example.com paid with tokencc_bf_abc-123_Z and fake-valid-visa-nonce; ' +
      'key sk_test_4eC39HqLyjWDarjtT1zdp7dc pk_live_abcDEF secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw ' +
      'Authorization: Bearer abc.def.ghi cvc=123 "cvc":"4567" to%40example.com';
    const out = scrubText(text);
    // An email whose digits happen to pass Luhn is still recognised as an email.
    expect(scrubText('from sentry-1795315780123@example.com')).toBe('from [email]');
    for (const secret of [
      'shopper@example.com',
      'tokencc_bf_abc-123_Z',
      'fake-valid-visa-nonce',
      'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      'pk_live_abcDEF',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'abc.def.ghi',
      '123',
      '4567',
      'to%40example.com',
    ]) {
      expect(out).not.toContain(secret);
    }
  });
});

describe('scrubValue', () => {
  it('drops the values of sensitive keys and scrubs every other string, at any depth', () => {
    const event = {
      event_id: '1234567890123456abcdef',
      request: {
        url: 'http://localhost/api/checkout/sessions/cs_1/card-tokens?email=a@b.co',
        headers: { Authorization: 'Bearer sk_test_x', Cookie: 'sid=1', 'content-type': 'application/json' },
        data: { number: '4111111111111111', cvc: '123', exp_month: 12, postal_code: '94107' },
      },
      breadcrumbs: [{ message: 'typed 5555 5555 5555 4444', data: { nonce: 'abc', email: 'x@y.zz' } }],
    };
    const out = scrubValue(event);
    expect(out.event_id).toBe(event.event_id);
    expect(out.request.headers).toEqual({ Authorization: FILTERED, Cookie: FILTERED, 'content-type': 'application/json' });
    expect(out.request.data).toEqual({ number: FILTERED, cvc: FILTERED, exp_month: 12, postal_code: '94107' });
    expect(out.request.url).not.toContain('a@b.co');
    expect(out.breadcrumbs[0]!.message).not.toContain('5555 5555 5555 4444');
    expect(out.breadcrumbs[0]!.data).toEqual({ nonce: FILTERED, email: FILTERED });
    // The input is not modified: the SDK may still hold it.
    expect(event.request.data.number).toBe('4111111111111111');
  });
});

describe('scrubEnvelope', () => {
  it('scrubs structured and binary item payloads', () => {
    const envelope = [
      { event_id: 'e1', dsn: 'http://public@localhost/1' },
      [
        [{ type: 'event' }, { message: 'card 4111111111111111' }],
        [{ type: 'attachment' }, new TextEncoder().encode('{"email":"shopper@example.com"}')],
      ],
    ];
    const out = scrubEnvelope(envelope) as typeof envelope;
    expect(JSON.stringify(out)).not.toContain('4111111111111111');
    const binary = (out[1] as any)[1][1] as Uint8Array;
    expect(new TextDecoder().decode(binary)).not.toContain('shopper@example.com');
    expect(out[0]).toEqual(envelope[0]);
  });
});
