import type { DeclineCode } from '../shared/errors';

/**
 * Braintree's processor response codes for declines (2000–2999) and what each means to us: the
 * decline code a merchant sees and the wording the processor uses. This is the one table every
 * processor adapter reads; a code not listed is a generic `do_not_honor`.
 */
const declineTable: Record<number, [text: string, declineCode: DeclineCode]> = {
  2000: ['Do Not Honor', 'do_not_honor'],
  2001: ['Insufficient Funds', 'insufficient_funds'],
  2002: ['Limit Exceeded', 'insufficient_funds'],
  2003: ["Cardholder's Activity Limit Exceeded", 'insufficient_funds'],
  2004: ['Expired Card', 'expired_card'],
  2005: ['Invalid Credit Card Number', 'incorrect_number'],
  2006: ['Invalid Expiration Date', 'expired_card'],
  2007: ['No Account', 'incorrect_number'],
  2008: ['Card Account Length Error', 'incorrect_number'],
  2009: ['No Such Issuer', 'incorrect_number'],
  2010: ['Card Issuer Declined CVV', 'incorrect_cvc'],
  2011: ['Voice Authorization Required', 'do_not_honor'],
  2012: ['Processor Declined - Possible Lost Card', 'lost_card'],
  2013: ['Processor Declined - Possible Stolen Card', 'stolen_card'],
  2014: ['Processor Declined - Fraud Suspected', 'fraudulent'],
  2015: ['Transaction Not Allowed', 'card_not_supported'],
  2016: ['Duplicate Transaction', 'processing_error'],
  2017: ['Cardholder Stopped Billing', 'do_not_honor'],
  2018: ['Cardholder Stopped All Billing', 'do_not_honor'],
  2019: ['Invalid Transaction', 'do_not_honor'],
  2020: ['Violation', 'do_not_honor'],
  2021: ['Security Violation', 'fraudulent'],
  2022: ['Declined - Updated Cardholder Available', 'do_not_honor'],
  2023: ['Processor Does Not Support This Feature', 'card_not_supported'],
  2024: ['Card Type Not Enabled', 'card_not_supported'],
  2025: ['Set Up Error - Merchant', 'processing_error'],
  2026: ['Invalid Merchant ID', 'processing_error'],
  2027: ['Set Up Error - Amount', 'processing_error'],
  2028: ['Set Up Error - Hierarchy', 'processing_error'],
  2029: ['Set Up Error - Card', 'processing_error'],
  2030: ['Set Up Error - Terminal', 'processing_error'],
  2031: ['Encryption Error', 'processing_error'],
  2032: ['Surcharge Not Permitted', 'processing_error'],
  2033: ['Inconsistent Data', 'processing_error'],
  2034: ['No Action Taken', 'processing_error'],
  2038: ['Processor Declined', 'do_not_honor'],
  2039: ['Invalid Authorization Code', 'processing_error'],
  2041: ['Declined - Call For Approval', 'do_not_honor'],
  2043: ['Error - Do Not Retry, Call Issuer', 'do_not_honor'],
  2044: ['Declined - Call Issuer', 'do_not_honor'],
  2046: ['Declined', 'do_not_honor'],
  2047: ['Call Issuer. Pick Up Card', 'lost_card'],
  2048: ['Invalid Amount', 'processing_error'],
  2051: ['Credit Card Number does not match method of payment', 'incorrect_number'],
  2053: ['Card reported as lost or stolen', 'stolen_card'],
  2057: ['Issuer or Cardholder has put a restriction on the card', 'do_not_honor'],
  2059: ['Address Verification Failed', 'do_not_honor'],
  2060: ['Address Verification and Card Security Code Failed', 'incorrect_cvc'],
  2061: ['Invalid Transaction Data', 'processing_error'],
  2064: ['Invalid Currency Code', 'card_not_supported'],
  2067: ['Authorization Expired', 'processing_error'],
  2099: ['Cardholder Authentication Required', 'authentication_failed'],
};

/** Processor response code that means the processor's network failed, not the card. */
export const PROCESSOR_UNAVAILABLE_CODE = 3000;

/** What a 2000–2999 processor response code means: its text and our decline code. */
export function describeDecline(code: number): { code: string; text: string; declineCode: DeclineCode } {
  const [text, declineCode] = declineTable[code] ?? ['Processor Declined', 'do_not_honor'];
  return { code: String(code), text, declineCode };
}

/** Every decline code we list explicitly, for tests that walk the whole table. */
export const listedDeclineResponseCodes: readonly number[] = Object.keys(declineTable).map(Number);

/**
 * Braintree's gateway rejections (`gateway_rejection_reason`): the gateway refused before asking
 * the card network, on the merchant's risk rules. The one table of what each means to us.
 */
const gatewayRejectionTable: Record<string, [text: string, declineCode: DeclineCode]> = {
  cvv: ['Gateway Rejected: cvv', 'incorrect_cvc'],
  avs: ['Gateway Rejected: avs', 'do_not_honor'],
  avs_and_cvv: ['Gateway Rejected: avs_and_cvv', 'incorrect_cvc'],
  fraud: ['Gateway Rejected: fraud', 'fraudulent'],
  risk_threshold: ['Gateway Rejected: risk_threshold', 'fraudulent'],
  three_d_secure: ['Gateway Rejected: three_d_secure', 'authentication_failed'],
  duplicate: ['Gateway Rejected: duplicate', 'processing_error'],
  token_issuance: ['Gateway Rejected: token_issuance', 'processing_error'],
  application_incomplete: ['Gateway Rejected: application_incomplete', 'processing_error'],
};

/** What a Braintree gateway rejection reason means: a response to record and our decline code. */
export function describeGatewayRejection(reason: string): { code: string; text: string; declineCode: DeclineCode } {
  const [text, declineCode] = gatewayRejectionTable[reason] ?? [`Gateway Rejected: ${reason}`, 'processing_error'];
  return { code: `gateway_rejected:${reason}`, text, declineCode };
}

/** Every gateway rejection reason we list explicitly, for tests that walk the whole table. */
export const listedGatewayRejectionReasons: readonly string[] = Object.keys(gatewayRejectionTable);
