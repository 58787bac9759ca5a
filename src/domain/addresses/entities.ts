/**
 * Postal addresses in Stripe's shape (`address {line1, line2, city, state, postal_code, country}`),
 * and the per-country format the page lays its form out by and the server checks them against
 * (docs/api.md, ADR 0068). The formats come from Google's address data (libaddressinput), through
 * the `addressFormats` port: nothing about a country is written by hand here.
 */
export interface Address {
  line1: string;
  line2: string | null;
  city: string | null;
  /** ISO 3166-2 subdivision code without the country where the data has one (`CA`, `13`). */
  state: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

/** Stripe's `shipping_details`. */
export interface ShippingDetails {
  name: string;
  address: Address;
}

/** A field of an address form, by Stripe's names. */
export type AddressField = 'name' | 'line1' | 'line2' | 'city' | 'state' | 'postal_code';

/** What the address data calls a country's subdivision, locality and postal code. */
export interface AddressLabels {
  /** state, province, prefecture, county, island, emirate, area, district, department, do_si, oblast, parish. */
  state: string;
  /** city, post_town, district, suburb. */
  city: string;
  /** postal, zip, pin, eircode. */
  postal_code: string;
}

/** One country's address format, derived from the address data. */
export interface AddressFormat {
  country: string;
  /** The form's rows in the country's order; each row's fields side by side. */
  rows: AddressField[][];
  required: AddressField[];
  /** Fields kept in capitals (GB's postcode). */
  uppercase: AddressField[];
  /** The whole postal code must match this (case-insensitive); null when the data has no rule. */
  postalCodePattern: string | null;
  /** Examples of valid postal codes, for a hint. */
  postalCodeExamples: string[];
  labels: AddressLabels;
  /** The subdivisions to choose from, when the data lists them. */
  states: Array<{ code: string; name: string }>;
}
