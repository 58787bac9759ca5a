import type { DashboardApiError } from './api';
import type { DashboardMessageKey, DashboardTranslate } from './i18n';

/**
 * What the dashboard says for a server error, by its catalogue code (design.md §8): the one place a
 * code becomes the operator's words. The API's own message is written for developers (amounts in
 * minor units, parameter names), so it is shown only for codes not listed here — the
 * `parameter_*` family, whose message names the field and what it must be, and codes added later.
 */
const messageByCode: Partial<Record<string, DashboardMessageKey>> = {
  network: 'error.network',
  not_signed_in: 'error.notSignedIn',
  csrf_token_invalid: 'error.csrfTokenInvalid',
  insufficient_role: 'error.insufficientRole',
  wrong_mode: 'error.wrongMode',
  resource_missing: 'error.resourceMissing',
  rate_limited: 'error.rateLimited',
  payment_not_capturable: 'error.paymentNotCapturable',
  payment_not_refundable: 'error.paymentNotRefundable',
  refund_exceeds_available: 'error.refundExceedsAvailable',
  payment_not_settled: 'error.paymentNotSettled',
  receipt_email_missing: 'error.receiptEmailMissing',
  email_not_configured: 'error.emailNotConfigured',
  email_not_sent: 'error.emailNotSent',
  processor_unavailable: 'error.processorUnavailable',
  processor_timeout: 'error.processorTimeout',
  database_unavailable: 'error.databaseUnavailable',
  internal_error: 'error.internal',
  sign_up_closed: 'error.signUpClosed',
  second_factor_enrolment_required: 'error.secondFactorEnrolmentRequired',
};

/** The sentence to show for an error from `api()` (or any other error, as it is). */
export function errorText(error: DashboardApiError | Error, t: DashboardTranslate): string {
  const key = 'code' in error ? messageByCode[error.code] : undefined;
  return key ? t(key) : error.message;
}
