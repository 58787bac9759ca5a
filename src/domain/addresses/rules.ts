import { TillpointError } from '../shared/errors';
import type { Address, AddressField, ShippingDetails } from './entities';
import type { AddressFormats } from './ports';

/** An address as the shopper's page sends it: Stripe's fields, any of them possibly empty. */
export interface AddressInput {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  country: string;
}

const MAX_FIELD = 200;
/** Countries a session may name in `shipping_address_collection[allowed_countries]` (Stripe's limit is the list of countries). */
export const MAX_ALLOWED_COUNTRIES = 250;

function invalid(param: string, message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param });
}

function missing(param: string, message: string): TillpointError {
  return new TillpointError('parameter_missing', message, { param });
}

/** `shipping_address_collection[allowed_countries]`: known ISO codes, upper-cased, without repeats. */
export function allowedCountriesOf(countries: readonly string[], formats: AddressFormats): string[] {
  const param = 'shipping_address_collection[allowed_countries]';
  if (countries.length === 0) throw invalid(param, 'allowed_countries must name at least one country');
  const known = new Set(formats.countries());
  const result: string[] = [];
  for (const [i, raw] of countries.entries()) {
    const code = raw.trim().toUpperCase();
    if (!known.has(code)) throw invalid(`${param}[${i}]`, `'${raw}' is not a two-letter ISO 3166-1 country code`);
    if (!result.includes(code)) result.push(code);
  }
  return result;
}

/** A field's text, trimmed; empty as null. */
function text(value: string | null | undefined, param: string): string | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed.length > MAX_FIELD) throw invalid(param, `must be at most ${MAX_FIELD} characters`);
  return trimmed === '' ? null : trimmed;
}

/**
 * Checks an address against its country's format and answers it normalised: required fields
 * present, the postal code matching the country's rule (in capitals where the country writes them),
 * the state one of the country's subdivisions (given by code or name, kept as its code).
 * `countries` limits the country (a session's `allowed_countries`); `param` names the address.
 */
export function validAddress(input: AddressInput, formats: AddressFormats, param: string, countries?: readonly string[]): Address {
  const country = input.country?.trim().toUpperCase() ?? '';
  const format = formats.format(country);
  if (!format) throw invalid(`${param}[country]`, 'country must be a two-letter ISO 3166-1 code');
  if (countries && !countries.includes(country)) {
    throw new TillpointError('parameter_invalid', 'This checkout does not ship to this country', { param: `${param}[country]` });
  }
  const used = new Set(format.rows.flat());
  const value = (field: Exclude<AddressField, 'name'>): string | null => {
    const given = text(input[field], `${param}[${field}]`);
    if (given === null || !used.has(field)) return null;
    return format.uppercase.includes(field) ? given.toUpperCase() : given;
  };
  const address: Address = {
    line1: value('line1') ?? '',
    line2: value('line2'),
    city: value('city'),
    state: value('state'),
    postal_code: value('postal_code'),
    country,
  };
  for (const field of format.required) {
    if (field === 'name') continue;
    if (!address[field]) throw missing(`${param}[${field}]`, `${field} is required for an address in ${country}`);
  }
  if (!address.line1) throw missing(`${param}[line1]`, 'line1 is required');
  if (address.postal_code !== null && format.postalCodePattern) {
    if (!new RegExp(`^(?:${format.postalCodePattern})$`, 'i').test(address.postal_code)) {
      throw new TillpointError('parameter_invalid', `This is not a valid postal code in ${country}`, { param: `${param}[postal_code]` });
    }
  }
  if (address.state !== null && format.states.length > 0) {
    const wanted = address.state.toUpperCase();
    const match = format.states.find((state) => state.code.toUpperCase() === wanted || state.name.toUpperCase() === wanted);
    if (!match) throw invalid(`${param}[state]`, `This is not a subdivision of ${country}`);
    address.state = match.code;
  }
  return address;
}

/** Stripe's `shipping_details`: a name and an address in one of the session's countries. */
export function validShippingDetails(
  input: { name?: string | null; address: AddressInput },
  formats: AddressFormats,
  allowedCountries: readonly string[],
): ShippingDetails {
  const name = text(input.name, 'shipping_details[name]');
  if (!name) throw missing('shipping_details[name]', 'name is required for a shipping address');
  return { name, address: validAddress(input.address, formats, 'shipping_details[address]', allowedCountries) };
}
