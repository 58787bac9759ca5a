import { describe, expect, it } from 'vitest';
import { offeredMethods } from './offered-methods';

const both = { payment_method_types: ['card', 'google_pay'] as Array<'card' | 'google_pay'> };
const on = { cardEnabled: true, googlePayEnabled: true };

describe('offeredMethods', () => {
  it('offers what the session asks for while every switch is on', () => {
    expect(offeredMethods(both, on)).toEqual(['card', 'google_pay']);
    expect(offeredMethods({ payment_method_types: ['card'] }, on)).toEqual(['card']);
  });

  it('google_pay_enabled off removes Google Pay; card_enabled off removes the card form', () => {
    expect(offeredMethods(both, { ...on, googlePayEnabled: false })).toEqual(['card']);
    expect(offeredMethods(both, { ...on, cardEnabled: false })).toEqual(['google_pay']);
    expect(offeredMethods(both, { cardEnabled: false, googlePayEnabled: false })).toEqual([]);
  });

  it('a switch never adds a method the session did not ask for', () => {
    expect(offeredMethods({ payment_method_types: ['google_pay'] }, on)).toEqual(['google_pay']);
  });
});
