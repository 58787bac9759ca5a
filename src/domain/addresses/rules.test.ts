import { describe, expect, it } from 'vitest';
import { TillpointError } from '../shared/errors';
import { matchDynamicTaxRate } from '../pricing/rules';
import type { DynamicTaxRate } from '../pricing/entities';
import type { AddressFormat } from './entities';
import type { AddressFormats } from './ports';
import { allowedCountriesOf, validAddress } from './rules';

// Two formats in the address data's shape, as the adapter derives them.
const formats: AddressFormats = {
  countries: () => ['GB', 'US'],
  format: (country) =>
    (
      ({
        US: {
          country: 'US',
          rows: [['name'], ['line1'], ['line2'], ['city', 'state', 'postal_code']],
          required: ['name', 'line1', 'city', 'state', 'postal_code'],
          uppercase: [],
          postalCodePattern: '(\\d{5})(?:[ \\-](\\d{4}))?',
          postalCodeExamples: ['95014'],
          labels: { state: 'state', city: 'city', postal_code: 'zip' },
          states: [
            { code: 'CA', name: 'California' },
            { code: 'NY', name: 'New York' },
          ],
        },
        GB: {
          country: 'GB',
          rows: [['name'], ['line1'], ['line2'], ['city'], ['postal_code']],
          required: ['name', 'line1', 'city', 'postal_code'],
          uppercase: ['postal_code'],
          postalCodePattern: '[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}',
          postalCodeExamples: ['EC1Y 8SY'],
          labels: { state: 'county', city: 'post_town', postal_code: 'postal' },
          states: [],
        },
      }) as Record<string, AddressFormat>
    )[country.toUpperCase()] ?? null,
};

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof TillpointError ? { code: error.code, param: error.param } : error;
  }
  return null;
};

describe("addresses by their country's format", () => {
  it('normalises: state by name to its code, postal code in capitals where the country writes it so, fields the country has not dropped', () => {
    expect(
      validAddress({ line1: ' 1 Infinite Loop ', city: 'Cupertino', state: 'california', postal_code: '95014-1234', country: 'us' }, formats, 'a'),
    ).toEqual({
      line1: '1 Infinite Loop',
      line2: null,
      city: 'Cupertino',
      state: 'CA',
      postal_code: '95014-1234',
      country: 'US',
    });
    expect(
      validAddress({ line1: '10 Downing St', city: 'London', state: 'Greater London', postal_code: 'sw1a 2aa', country: 'GB' }, formats, 'a'),
    ).toMatchObject({ state: null, postal_code: 'SW1A 2AA' });
  });

  it('refuses a missing required field, a postal code against its rule, an unknown subdivision or country, or a country not allowed', () => {
    const us = { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal_code: '95014', country: 'US' };
    expect(refusal(() => validAddress({ ...us, city: ' ' }, formats, 'a'))).toEqual({ code: 'parameter_missing', param: 'a[city]' });
    expect(refusal(() => validAddress({ ...us, postal_code: '950' }, formats, 'a'))).toEqual({ code: 'parameter_invalid', param: 'a[postal_code]' });
    expect(refusal(() => validAddress({ ...us, state: 'XX' }, formats, 'a'))).toEqual({ code: 'parameter_invalid', param: 'a[state]' });
    expect(refusal(() => validAddress({ ...us, country: 'XQ' }, formats, 'a'))).toEqual({ code: 'parameter_invalid', param: 'a[country]' });
    expect(refusal(() => validAddress(us, formats, 'a', ['GB']))).toEqual({ code: 'parameter_invalid', param: 'a[country]' });
    expect(allowedCountriesOf(['us', 'GB', 'US'], formats)).toEqual(['US', 'GB']);
    expect(refusal(() => allowedCountriesOf(['US', 'XQ'], formats))).toEqual({
      code: 'parameter_invalid',
      param: 'shipping_address_collection[allowed_countries][1]',
    });
  });
});

describe('dynamic tax rates by jurisdiction', () => {
  const rate = (id: string, country: string, state: string | null): DynamicTaxRate => ({
    id,
    displayName: id,
    percentage: 5,
    inclusive: false,
    country,
    state,
  });
  const rates = [rate('us', 'US', null), rate('ca', 'US', 'CA'), rate('gb', 'GB', null)];
  it('takes the rate of the state, else of the country, else none; none without an address', () => {
    expect(matchDynamicTaxRate(rates, { country: 'US', state: 'CA' })?.id).toBe('ca');
    expect(matchDynamicTaxRate(rates, { country: 'US', state: 'NY' })?.id).toBe('us');
    expect(matchDynamicTaxRate(rates, { country: 'GB', state: null })?.id).toBe('gb');
    expect(matchDynamicTaxRate(rates, { country: 'DE', state: null })).toBeNull();
    expect(matchDynamicTaxRate(rates, null)).toBeNull();
  });
});
