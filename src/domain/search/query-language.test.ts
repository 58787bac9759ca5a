import { describe, expect, it } from 'vitest';
import { TillpointError } from '../shared/errors';
import { parsePaymentSearchQuery } from './query-language';

function refused(query: string): TillpointError {
  try {
    parsePaymentSearchQuery(query);
  } catch (error) {
    return error as TillpointError;
  }
  throw new Error(`${query} was accepted`);
}

describe('the payment search query language', () => {
  it('reads exact, part, metadata and comparison clauses joined by AND', () => {
    expect(parsePaymentSearchQuery(`status:'succeeded' AND email~"@Shop.example" AND metadata['order']:'A-1' AND amount>=1000 AND created<1700000000`)).toEqual(
      [
        { field: 'status', value: 'succeeded' },
        { field: 'email', op: 'part', value: '@Shop.example' },
        { field: 'metadata', key: 'order', value: 'A-1' },
        { field: 'amount', op: '>=', value: 1000 },
        { field: 'created', op: '<', value: new Date(1_700_000_000_000) },
      ],
    );
  });

  it('reads ids exactly or by prefix, last4, currency, references and quoted quotes', () => {
    expect(parsePaymentSearchQuery(`id:'pay_1' AND id~'pay_' AND last4:'4242' AND currency:'usd'`)).toEqual([
      { field: 'id', op: 'exact', value: 'pay_1' },
      { field: 'id', op: 'prefix', value: 'pay_' },
      { field: 'last4', value: '4242' },
      { field: 'currency', value: 'USD' },
    ]);
    expect(parsePaymentSearchQuery(`client_reference_id:'it\\'s' AND checkout_session:'cs_1' AND amount:500`)).toEqual([
      { field: 'client_reference_id', value: "it's" },
      { field: 'checkout_session', value: 'cs_1' },
      { field: 'amount', op: '=', value: 500 },
    ]);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ["colour:'red'", /unknown field colour/],
    ["status:'lost'", /status must be one of/],
    ["status:'succeeded' OR status:'failed'", /OR is not supported/],
    ["status:'succeeded' status:'failed'", /expected AND/],
    ["status:'succeeded'AND amount>1", /expected a space and AND/],
    ['status:succeeded', /expected a quoted value/],
    ["status:'succeeded", /closing '/],
    ['amount>ten', /whole number/],
    ['amount>-5', /whole number/],
    ['amount>100000000', /at most 99999999/],
    ["last4:'42'", /4 digits/],
    ["currency:'xyz'", /not a supported currency/],
    ["status~'succ'", /~ works on email and id only/],
    ["email~'ab'", /at least 3/],
    ["metadata['']:'x'", /key may not be empty/],
    ["metadata.order:'x'", /metadata\['key'\]/],
    [Array.from({ length: 11 }, () => "last4:'4242'").join(' AND '), /at most 10 clauses/],
    ['x'.repeat(1001), /at most 1000 characters/],
  ])('refuses %j with parameter_invalid on query', (query, message) => {
    const error = refused(query);
    expect(error).toBeInstanceOf(TillpointError);
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe('query');
    expect(error.message).toMatch(message);
  });
});
