import type { Address } from './entities';

/**
 * A postal address as lines to read (on a receipt, a payment's page, a label): street lines, then
 * postal code, city and state on one line, then the country code. Empty parts are left out.
 *
 * @example addressLines({ line1: '1 Main St', line2: null, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' })
 *   // ['1 Main St', '78701 Austin TX', 'US']
 */
export function addressLines(address: Address): string[] {
  const locality = [address.postal_code, address.city, address.state].filter((part) => part && part.trim() !== '').join(' ');
  return [address.line1, address.line2 ?? '', locality, address.country].filter((line) => line.trim() !== '');
}
