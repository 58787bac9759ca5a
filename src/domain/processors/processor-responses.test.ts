import { describe, expect, it } from 'vitest';
import { declineCodes } from '../shared/errors';
import { describeDecline, listedDeclineResponseCodes, PROCESSOR_UNAVAILABLE_CODE } from './processor-responses';

describe('describeDecline', () => {
  it.each([
    [2000, 'do_not_honor', 'Do Not Honor'],
    [2001, 'insufficient_funds', 'Insufficient Funds'],
    [2004, 'expired_card', 'Expired Card'],
    [2010, 'incorrect_cvc', 'Card Issuer Declined CVV'],
    [2014, 'fraudulent', 'Processor Declined - Fraud Suspected'],
  ])('%i → %s (%s)', (code, declineCode, text) => {
    expect(describeDecline(code)).toEqual({ code: String(code), text, declineCode });
  });

  it('maps lost and stolen cards to their own decline codes', () => {
    expect(describeDecline(2012).declineCode).toBe('lost_card');
    expect(describeDecline(2013).declineCode).toBe('stolen_card');
  });

  it.each([2999, 2035, 2500])('an unlisted code %i is a generic do_not_honor, "Processor Declined"', (code) => {
    expect(describeDecline(code)).toEqual({ code: String(code), text: 'Processor Declined', declineCode: 'do_not_honor' });
  });

  it('returns the response code as a string, as processors report it', () => {
    expect(describeDecline(2001).code).toBe('2001');
  });
});

describe('the decline table', () => {
  it('lists a non-trivial set of codes, each a decline code in 2000..2999', () => {
    expect(listedDeclineResponseCodes.length).toBeGreaterThanOrEqual(20);
    for (const code of listedDeclineResponseCodes) {
      expect(Number.isInteger(code), String(code)).toBe(true);
      expect(code, String(code)).toBeGreaterThanOrEqual(2000);
      expect(code, String(code)).toBeLessThanOrEqual(2999);
    }
  });

  it('maps every listed code to a known decline code and a non-empty text', () => {
    for (const code of listedDeclineResponseCodes) {
      const described = describeDecline(code);
      expect(declineCodes, String(code)).toContain(described.declineCode);
      expect(described.text.length, String(code)).toBeGreaterThan(0);
    }
  });

  it('never maps a processor decline to test_mode_live_card (that one is ours alone)', () => {
    for (const code of listedDeclineResponseCodes) {
      expect(describeDecline(code).declineCode, String(code)).not.toBe('test_mode_live_card');
    }
  });

  it('keeps the network failure code outside the decline range', () => {
    expect(PROCESSOR_UNAVAILABLE_CODE).toBe(3000);
    expect(listedDeclineResponseCodes).not.toContain(PROCESSOR_UNAVAILABLE_CODE);
  });
});
