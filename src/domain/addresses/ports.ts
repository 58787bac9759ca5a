import type { AddressFormat } from './entities';

/** The address data: every country's format (an adapter reads a maintained data set). */
export interface AddressFormats {
  /** ISO 3166-1 alpha-2 codes of every country the data describes, upper case. */
  countries(): readonly string[];
  /** One country's format; null for a code the data does not know. */
  format(country: string): AddressFormat | null;
}
