import { afterEach, describe, expect, it } from 'vitest';
import type { FlagEvaluation } from '../../domain/flags/flag-evaluation';
import type { FlagState } from '../../domain/flags/ports';
import type { Scope } from '../../domain/shared/scope';
import { openServerFlags } from './server-flags';

const scope: Scope = { accountId: 'acct_1', mode: 'test' };
const state: FlagState = { stored: [], running: [] };

/** What our store's evaluation answers per key; `broken` cannot be read. */
function evaluate(_scope: Scope, key: string, targetingKey: string | null): Promise<FlagEvaluation> {
  if (key === 'broken') return Promise.reject(new Error('the database is gone'));
  if (key === 'missing') return Promise.resolve({ key, errorCode: 'FLAG_NOT_FOUND', errorDetails: 'no such flag' });
  if (key === 'needs_unit' && !targetingKey) return Promise.resolve({ key, errorCode: 'TARGETING_KEY_MISSING', errorDetails: 'no unit' });
  const value = key === 'card_enabled' ? false : key === 'needs_unit' ? `unit-${targetingKey}` : 'always';
  return Promise.resolve({ key, value, variant: String(value), reason: 'STATIC', metadata: {} });
}

describe('server flags over flags already read', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const flags of opened.splice(0)) await flags.close();
  });

  it('answer as the OpenFeature client answers: the value, or the default when missing, of another type or unreadable', async () => {
    const flags = openServerFlags({ evaluate, ofrepUrl: null, readState: async () => state });
    opened.push(flags);
    const read = await flags.read!(scope, ['card_enabled', 'three_d_secure']);
    const cases: [kind: 'boolean' | 'string', key: string, fallback: boolean | string, unit?: string][] = [
      ['boolean', 'card_enabled', true, 'cs_1'],
      ['string', 'three_d_secure', 'when_required', 'cs_1'],
      ['string', 'card_enabled', 'fallback'],
      ['boolean', 'three_d_secure', true],
      ['boolean', 'missing', true],
      ['string', 'broken', 'fallback'],
      ['string', 'needs_unit', 'fallback'],
      ['string', 'needs_unit', 'fallback', 'cs_2'],
      ['string', 'needs_unit', 'fallback', ''],
    ];
    const answers = async (reader: typeof read) =>
      Promise.all(
        cases.map(([kind, key, fallback, unit]) =>
          kind === 'boolean' ? reader.booleanValue(scope, key, fallback as boolean, unit) : reader.stringValue(scope, key, fallback as string, unit),
        ),
      );
    const expected = [false, 'always', 'fallback', true, true, 'fallback', 'fallback', 'unit-cs_2', 'fallback'];
    expect(await answers(read)).toEqual(expected);
    // The same cases through the SDK, which reads nothing already read.
    expect(await answers(flags)).toEqual(expected);
  });

  it('are offered only over our own store: an external flag service is never handed them', async () => {
    const flags = openServerFlags({ evaluate, ofrepUrl: 'http://127.0.0.1:9/ofrep', readState: async () => state });
    opened.push(flags);
    expect(flags.read).toBeUndefined();
  });
});
