import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeyPrefix, hashApiKey, parseApiKey } from './api-key-secret';
import { newId } from '../shared/ids';

describe('apiKeyPrefix', () => {
  it.each([
    ['secret', 'test', 'sk_test_'],
    ['secret', 'live', 'sk_live_'],
    ['publishable', 'test', 'pk_test_'],
    ['publishable', 'live', 'pk_live_'],
    ['restricted', 'test', 'rk_test_'],
    ['restricted', 'live', 'rk_live_'],
  ] as const)('%s %s → %s', (kind, mode, prefix) => {
    expect(apiKeyPrefix(kind, mode)).toBe(prefix);
  });
});

describe('parseApiKey', () => {
  it('reads kind and mode off keys shaped like ours', () => {
    expect(parseApiKey(newId('sk_test'))).toEqual({ kind: 'secret', mode: 'test' });
    expect(parseApiKey(newId('sk_live'))).toEqual({ kind: 'secret', mode: 'live' });
    expect(parseApiKey(newId('pk_test'))).toEqual({ kind: 'publishable', mode: 'test' });
    expect(parseApiKey(newId('pk_live', 32))).toEqual({ kind: 'publishable', mode: 'live' });
    expect(parseApiKey(newId('rk_test'))).toEqual({ kind: 'restricted', mode: 'test' });
    expect(parseApiKey(newId('rk_live'))).toEqual({ kind: 'restricted', mode: 'live' });
  });

  it.each([
    '',
    'sk_test_',
    `sk_test_${'a'.repeat(23)}`,
    `rk_test_${'a'.repeat(23)}`,
    `sk_prod_${'a'.repeat(24)}`,
    `SK_TEST_${'a'.repeat(24)}`,
    `sk_test_${'a'.repeat(23)}-`,
    ` sk_test_${'a'.repeat(24)}`,
    `Bearer sk_test_${'a'.repeat(24)}`,
  ])('refuses %j', (key) => {
    expect(parseApiKey(key)).toBeNull();
  });
});

describe('hashApiKey', () => {
  it('is the hex SHA-256 of the key, never the key itself', async () => {
    const key = newId('sk_test');
    const hash = await hashApiKey(key);
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(8));
  });

  it('differs for different keys and is stable for one key', async () => {
    const a = newId('sk_test');
    const b = newId('sk_test');
    expect(await hashApiKey(a)).toBe(await hashApiKey(a));
    expect(await hashApiKey(a)).not.toBe(await hashApiKey(b));
  });

  it('hashes a known value correctly', async () => {
    expect(await hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
