/**
 * A customer email as a viewer sees it: the first letter of the local part and the domain, enough to
 * recognise a customer one is told about, not enough to collect addresses. `jane@shop.example` →
 * `j•••@shop.example`.
 */
export function maskEmail(email: string | null): string | null {
  if (email === null) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The longest address the payment endpoint accepts (RFC 5321's path limit). */
export const MAX_CUSTOMER_EMAIL_LENGTH = 254;

/**
 * Whether a shopper's email (trimmed) is one a payment accepts: something@domain.tld, no spaces, at
 * most 254 characters. The one rule the payment use case enforces and the checkout page checks
 * before sending, so both say the same.
 */
export function isValidCustomerEmail(email: string): boolean {
  const trimmed = email.trim();
  return trimmed.length <= MAX_CUSTOMER_EMAIL_LENGTH && EMAIL.test(trimmed);
}
