import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TillpointError } from '../domain/shared/errors';
import { formatBodyLimit, parseInput, toTillpointError } from './errors';

const schema = z.strictObject({
  amount: z.number().int().min(1),
  ratio: z.number().max(1).optional(),
  name: z.string().min(1).max(5).optional(),
  items: z
    .array(z.strictObject({ quantity: z.number().int() }))
    .min(1)
    .optional(),
  capture_method: z.enum(['automatic', 'manual']).optional(),
  url: z.url().optional(),
  livemode: z.boolean().optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code')
    .optional(),
});

function refusal(input: unknown): TillpointError {
  try {
    parseInput(schema, input);
  } catch (error) {
    if (error instanceof TillpointError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('validation messages', () => {
  it.each([
    [{ amount: '12' }, 'amount', "amount must be an integer (in the currency's minor unit)"],
    [{ amount: 12.5 }, 'amount', "amount must be an integer (in the currency's minor unit)"],
    [{ amount: 0 }, 'amount', 'amount must be at least 1'],
    [{ amount: 1, ratio: 'half' }, 'ratio', 'ratio must be a number'],
    [{ amount: 1, ratio: 2 }, 'ratio', 'ratio must be at most 1'],
    [{ amount: 1, name: '' }, 'name', 'name must be at least 1 character long'],
    [{ amount: 1, name: 'Kenya AA' }, 'name', 'name must be at most 5 characters long'],
    [{ amount: 1, items: [] }, 'items', 'items must have at least 1 item'],
    [{ amount: 1, items: [{ quantity: '2' }] }, 'items[0][quantity]', 'items[0][quantity] must be an integer'],
    [{ amount: 1, capture_method: 'later' }, 'capture_method', 'capture_method must be one of "automatic", "manual"'],
    [{ amount: 1, url: 'shop.example' }, 'url', 'url must be an absolute URL'],
    [{ amount: 1, livemode: 'yes' }, 'livemode', 'livemode must be true or false'],
    [{ amount: 1, currency: 'dollars' }, 'currency', 'currency must be a three-letter ISO 4217 code'],
  ])('%j → %s: %s', (input, param, message) => {
    const error = refusal(input);
    expect(error.code).toBe('parameter_invalid');
    expect(error.param).toBe(param);
    expect(error.message).toBe(message);
    expect(error.message).not.toMatch(/Invalid input|expected|received/);
  });

  it('keeps missing and unknown parameters apart from invalid ones', () => {
    expect(refusal({})).toMatchObject({ code: 'parameter_missing', param: 'amount', message: 'Missing required parameter: amount' });
    expect(refusal({ amount: 1, colour: 'red' })).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
  });

  it('never quotes the input in the message', () => {
    expect(refusal({ amount: '4111111111111111' }).message).not.toContain('4111');
  });

  it('answers a body over the limit with 413 request_too_large, naming the limit', () => {
    const error = toTillpointError(Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }));
    expect(error).toMatchObject({ code: 'request_too_large', status: 413, type: 'invalid_request_error' });
    expect(error.message).toContain('256 KB');
  });

  it("names a route's own larger limit, and what it is for, when the route has one", () => {
    const tooLarge = Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
    const error = toTillpointError(tooLarge, { bytes: 5_657_942, note: 'an evidence file may be at most 4 MB' });
    expect(error.message).toBe('The request body is larger than the limit of 5.4 MB (5657942 bytes): an evidence file may be at most 4 MB');
    expect(formatBodyLimit(64 * 1024)).toBe('64 KB');
  });
});
