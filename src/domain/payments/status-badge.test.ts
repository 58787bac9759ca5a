import { describe, expect, it } from 'vitest';
import { paymentStatusBadge, statusOfBadge } from './status-badge';

describe('payment status badges', () => {
  it('read refunded or partially refunded for a succeeded payment by what was refunded of what was captured', () => {
    const succeeded = (amountCaptured: number, amountRefunded: number) => paymentStatusBadge({ status: 'succeeded', amountCaptured, amountRefunded });
    expect(succeeded(5000, 0)).toBe('succeeded');
    expect(succeeded(5000, 1)).toBe('partially_refunded');
    expect(succeeded(5000, 4999)).toBe('partially_refunded');
    expect(succeeded(5000, 5000)).toBe('refunded');
    // Partly captured, then refunded in full: what was captured is what counts.
    expect(succeeded(1500, 1500)).toBe('refunded');
  });

  it('leave every other status as it is, and map back to the lifecycle status', () => {
    expect(paymentStatusBadge({ status: 'requires_capture', amountCaptured: 0, amountRefunded: 0 })).toBe('requires_capture');
    expect(paymentStatusBadge({ status: 'canceled', amountCaptured: 0, amountRefunded: 0 })).toBe('canceled');
    expect(statusOfBadge('refunded')).toBe('succeeded');
    expect(statusOfBadge('partially_refunded')).toBe('succeeded');
    expect(statusOfBadge('failed')).toBe('failed');
  });
});
