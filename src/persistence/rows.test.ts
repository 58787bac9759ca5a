import { describe, expect, it } from 'vitest';
import { jsonMembers, recordMembers, type Field } from './rows';

interface Thing {
  id: string;
  amount: number;
  at: Date;
  note: string | null;
  details: { brand: string; last4: string; nested: { quote: string } } | null;
  missing?: string;
}

const fields: readonly Field<Thing>[] = [
  ['id', 'text', (t) => t.id],
  ['amount', 'bigint', (t) => t.amount],
  ['at', 'timestamptz', (t) => t.at],
  ['note', 'text', (t) => t.note],
  ['details', 'jsonb', (t) => t.details],
  ['missing', 'text', (t) => t.missing],
];

describe('records written as JSON text', () => {
  const thing: Thing = {
    id: 'pay_1',
    amount: 2900,
    at: new Date('2026-11-25T08:00:00.123Z'),
    note: 'line "one"\nline two — é 🚀',
    details: { brand: 'visa', last4: '1111', nested: { quote: '"\\' } },
  };

  it('reads back as the object JSON.stringify would have written, keys under the prefix', () => {
    const text = `{${jsonMembers({ n: 3, at: thing.at })},${recordMembers(fields, thing, 'p_')}}`;
    const object = { n: 3, at: thing.at, ...Object.fromEntries(fields.map(([column, , value]) => [`p_${column}`, value(thing) ?? null])) };
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(object)));
    expect(JSON.parse(text)).toMatchObject({ p_at: '2026-11-25T08:00:00.123Z', p_missing: null, p_details: { nested: { quote: '"\\' } } });
  });

  it('writes nulls and an empty prefix', () => {
    const empty: Thing = { id: 'x', amount: 0, at: new Date(0), note: null, details: null };
    expect(JSON.parse(`{${recordMembers(fields, empty, '')}}`)).toEqual({
      id: 'x', amount: 0, at: '1970-01-01T00:00:00.000Z', note: null, details: null, missing: null,
    });
  });
});
