import { describe, expect, it } from 'vitest';
import { record, recordPart, recordSet, type Field } from './rows';

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

describe('records written as JSON arrays', () => {
  const thing: Thing = {
    id: 'pay_1',
    amount: 2900,
    at: new Date('2026-11-25T08:00:00.123Z'),
    note: 'line "one"\nline two — é 🚀',
    details: { brand: 'visa', last4: '1111', nested: { quote: '"\\' } },
  };

  it('reads back as the array JSON.stringify would have written, in the order of the fields', () => {
    const values = JSON.parse(`[${recordPart(fields, '', (t: Thing) => t).values(thing)}]`);
    expect(values).toEqual(JSON.parse(JSON.stringify(fields.map(([, , value]) => value(thing) ?? null))));
    expect(values).toEqual(['pay_1', 2900, '2026-11-25T08:00:00.123Z', 'line "one"\nline two — é 🚀', thing.details, null]);
  });

  it('a part that is absent is all nulls; parts follow one another, as their columns do', () => {
    const both = record(
      recordPart(fields, 'a_', (m: { a: Thing; b: Thing | null }) => m.a),
      recordPart(fields, 'b_', (m: { a: Thing; b: Thing | null }) => m.b),
    );
    expect(both.columns.map(([name]) => name)).toEqual([...fields.map(([c]) => `a_${c}`), ...fields.map(([c]) => `b_${c}`)]);
    expect(JSON.parse(`[${both.values({ a: thing, b: null })}]`).slice(fields.length)).toEqual(fields.map(() => null));
  });

  it('is read by position, each column cast to its type, JSON null as SQL NULL', () => {
    expect(
      recordSet([
        ['id', 'text'],
        ['amount', 'bigint'],
        ['details', 'jsonb'],
      ]),
    ).toBe("SELECT (r->>0)::int AS n, r->>1 AS id, (r->>2)::bigint AS amount, NULLIF(r->3, 'null') AS details FROM jsonb_array_elements($1::jsonb) AS r");
  });
});
