import { describe, expect, it } from 'vitest';
import { readPage } from '../shared/pagination';
import { paymentEventType } from './transition';

describe('paymentEventType', () => {
  it('names a capture payment.captured, not a second payment.succeeded', () => {
    expect(paymentEventType('requires_capture', 'succeeded')).toBe('payment.captured');
    expect(paymentEventType('processing', 'succeeded')).toBe('payment.succeeded');
  });

  it('names a void payment.canceled and an authorization payment.requires_capture', () => {
    expect(paymentEventType('requires_capture', 'canceled')).toBe('payment.canceled');
    expect(paymentEventType('processing', 'requires_capture')).toBe('payment.requires_capture');
    expect(paymentEventType('processing', 'failed')).toBe('payment.failed');
  });

  it('writes no event for the 3-D Secure detour', () => {
    expect(paymentEventType('processing', 'requires_action')).toBeUndefined();
  });
});

describe('readPage', () => {
  const rows = ['e', 'd', 'c', 'b', 'a'];
  const fetchFrom = (all: string[]) => async (request: { limit: number; startingAfter?: string }) => {
    const start = request.startingAfter ? all.indexOf(request.startingAfter) + 1 : 0;
    return all.slice(start, start + request.limit);
  };

  it('asks for one row more than the page and says whether more follow', async () => {
    const asked: number[] = [];
    const page = await readPage({ limit: 2 }, async (request) => {
      asked.push(request.limit);
      return fetchFrom(rows)(request);
    });
    expect(asked).toEqual([3]);
    expect(page).toEqual({ data: ['e', 'd'], hasMore: true });
  });

  it('ends with has_more false on the last page, even when it is exactly full', async () => {
    expect(await readPage({ limit: 2, startingAfter: 'c' }, fetchFrom(rows))).toEqual({ data: ['b', 'a'], hasMore: false });
    expect(await readPage({ limit: 5 }, fetchFrom(rows))).toEqual({ data: rows, hasMore: false });
  });
});
