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
