import { describe, expect, it } from 'vitest';
import { findUnstorable, MAX_INPUT_DEPTH, unstorableInputError } from './storable-input';

describe('findUnstorable', () => {
  it('finds a NUL or an unpaired surrogate at any depth, keys included, and names its path', () => {
    expect(findUnstorable({ line_items: [{ name: 'ok' }, { name: 'a\u0000b' }] })).toEqual({ path: ['line_items', 1, 'name'], problem: 'text' });
    expect(findUnstorable({ metadata: { 'k\u0000': 'v' } })).toEqual({ path: ['metadata', 'k\\u0000'], problem: 'text' });
    expect(findUnstorable({ email: 'a\ud800' })?.path).toEqual(['email']);
    expect(findUnstorable({ email: '\udc00a' })?.path).toEqual(['email']);
    expect(findUnstorable({ email: 'x\udbff' })?.path).toEqual(['email']);
    expect(findUnstorable('raw \u0000 text')).toEqual({ path: [], problem: 'text' });
  });

  it('lets every other character through: emoji (a surrogate pair), right-to-left marks, control characters but NUL', () => {
    expect(findUnstorable({ name: 'Café 💳 \u202e \u0001 \uffff 𝔘', metadata: { '🔑': '値' } })).toBeNull();
    expect(findUnstorable([1, true, null, 2.5, { a: [] }])).toBeNull();
  });

  it('reports the first problem in document order', () => {
    expect(findUnstorable({ a: 'fine', b: ['\u0000'], c: '\u0000' })?.path).toEqual(['b', 0]);
    expect(findUnstorable(['fine', { a: '\u0000' }, '\u0000'])?.path).toEqual([1, 'a']);
  });

  it(`bounds nesting at ${MAX_INPUT_DEPTH} levels without recursing (100,000 levels do not exhaust the stack)`, () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorable(deep)?.problem).toBe('depth');
    let justDeepEnough: unknown = 'leaf';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) justDeepEnough = { a: justDeepEnough };
    expect(findUnstorable(justDeepEnough)).toBeNull();
    expect(findUnstorable({ a: justDeepEnough })?.problem).toBe('depth');
  });
});

describe('unstorableInputError', () => {
  it('names a path or query parameter by its key, a body field by its full path', () => {
    expect(unstorableInputError({ params: { id: 'pay_\u0000' }, query: {}, body: undefined })).toMatchObject({ code: 'parameter_invalid', param: 'id' });
    expect(unstorableInputError({ params: {}, query: { email: ['a', 'b\u0000'] }, body: undefined })).toMatchObject({ param: 'email' });
    expect(unstorableInputError({ params: {}, query: {}, body: { line_items: [{ name: '\ud800' }] } })).toMatchObject({ param: 'line_items[0][name]' });
    const body = unstorableInputError({ params: {}, query: {}, body: 'text/plain \u0000' });
    expect(body?.param).toBeUndefined();
    expect(body?.message).toMatch(/request body/);
    expect(unstorableInputError({ params: { id: 'pay_1' }, query: { limit: '10' }, body: { name: 'ok' } })).toBeNull();
  });

  it('names the top-level field of a body nested too deep, and nothing for an array at the root', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expect(unstorableInputError({ params: {}, query: {}, body: { metadata: deep } })).toMatchObject({ param: 'metadata' });
    expect(
      unstorableInputError({ params: {}, query: {}, body: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]] })?.param,
    ).toBeUndefined();
  });
});
