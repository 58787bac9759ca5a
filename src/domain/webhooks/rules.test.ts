import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { failedTooLong, nextRetryAt, signatureHeader, webhookPayload } from './rules';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('nextRetryAt', () => {
  const first = new Date('2026-06-01T00:00:00Z');
  const offset = (failures: number) => {
    const at = nextRetryAt(first, failures);
    return at && (at.getTime() - first.getTime()) / MINUTE;
  };

  it('follows design.md §9: 1 m, 5 m, 30 m, 2 h, 5 h, 10 h after each failure, then every 12 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(offset)).toEqual([1, 6, 36, 156, 456, 1056, 1776, 2496]);
  });

  it('stops after 3 days', () => {
    expect(offset(10)).toBe(3936);
    expect(offset(11)).toBeNull();
  });
});

describe('failedTooLong', () => {
  it('is true after 72 hours of failing, not before', () => {
    const since = new Date('2026-06-01T00:00:00Z');
    expect(failedTooLong(since, new Date(since.getTime() + 72 * HOUR - 1))).toBe(false);
    expect(failedTooLong(since, new Date(since.getTime() + 72 * HOUR))).toBe(true);
    expect(failedTooLong(null, new Date())).toBe(false);
  });
});

describe('signatureHeader', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256 of "t.body">, matching an independent HMAC', async () => {
    const header = await signatureHeader('whsec_abc', 1767225600, '{"id":"evt_1"}');
    const expected = createHmac('sha256', 'whsec_abc').update('1767225600.{"id":"evt_1"}').digest('hex');
    expect(header).toBe(`t=1767225600,v1=${expected}`);
  });
});

describe('webhookPayload', () => {
  it('shapes the event as {id, object, type, created, livemode, data.object}', () => {
    const body = webhookPayload({
      id: 'evt_1',
      accountId: 'acct_1',
      mode: 'live',
      type: 'payment.succeeded',
      objectId: 'pay_1',
      data: { id: 'pay_1' },
      createdAt: new Date('2026-06-01T00:00:00Z'),
    });
    expect(JSON.parse(body)).toEqual({
      id: 'evt_1',
      object: 'event',
      type: 'payment.succeeded',
      created: 1780272000,
      livemode: true,
      data: { object: { id: 'pay_1' } },
    });
  });
});
