import { protocol } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { bindMessage } from './pglite-bind.mjs';

describe("the PGlite thread's Bind message", () => {
  it.each([
    ['no parameters', []],
    ['text, an empty string and nulls', ['cs_123', '', null, 'test', null]],
    ['characters of several bytes', ['Zoë — 東京 🚀', '{"name":"Café"}']],
    ['bytes, sent binary', ['a', new Uint8Array([0, 1, 2, 255]), null]],
    ['many parameters', Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? null : `value ${i}`))],
  ])('is byte for byte the one PGlite builds: %s', (_, values) => {
    const ours = bindMessage('tillpoint_12', values as Array<string | Uint8Array | null>);
    const theirs = protocol.serialize.bind({ statement: 'tillpoint_12', values: values as Array<string | null> });
    expect(Buffer.from(ours).equals(Buffer.from(theirs))).toBe(true);
  });
});
