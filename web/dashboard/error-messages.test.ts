import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { DashboardApiError } from './api';
import { errorText } from './error-messages';
import en from './i18n/en.json';
import type { DashboardTranslate } from './i18n';

const t: DashboardTranslate = (key, values) => String(new IntlMessageFormat(en[key], 'en').format(values));

describe("the dashboard's words for server errors", () => {
  it("say what happened in the operator's terms, not the API's text in minor units", () => {
    const refused = new DashboardApiError(
      409,
      'refund_exceeds_available',
      'amount must be between 1 and 2500, what remains to refund on this payment',
      'amount',
    );
    expect(errorText(refused, t)).toBe(en['error.refundExceedsAvailable']);
    expect(errorText(refused, t)).not.toMatch(/2500|amount must/);
    expect(errorText(new DashboardApiError(403, 'insufficient_role', 'The viewer role lacks payments.refund'), t)).toBe(
      'Your role does not allow this. Ask an owner or an admin.',
    );
  });

  it("keep the server's sentence for field errors and codes without words of their own", () => {
    expect(errorText(new DashboardApiError(400, 'parameter_invalid', 'url: must be https in live mode', 'url'), t)).toBe('url: must be https in live mode');
    expect(errorText(new DashboardApiError(401, 'sign_in_failed', 'The email or password is not right'), t)).toBe('The email or password is not right');
    expect(errorText(new Error('Something else'), t)).toBe('Something else');
  });
});
