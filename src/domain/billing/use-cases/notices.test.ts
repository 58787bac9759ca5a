import { describe, expect, it } from 'vitest';
import { blankOf } from '../../shared/resource-shape';
import { subscriptions, type Subscription } from '../entities';
import { trialWillEndDue, upcomingDue } from './notices';

const DAY = 24 * 60 * 60 * 1000;
const start = new Date('2027-01-01T09:00:00Z');
const at = (days: number) => new Date(start.getTime() + days * DAY);

function subscription(overrides: Partial<Subscription>): Subscription {
  return {
    ...(blankOf(subscriptions) as Subscription),
    id: 'sub_1',
    status: 'active',
    billingCycleAnchor: start,
    currentPeriodStart: start,
    currentPeriodEnd: at(31),
    cancelAtPeriodEnd: false,
    pendingInvoiceLines: [],
    ...overrides,
  };
}

describe('when the notices fall due', () => {
  it('trial_will_end: from 3 days before the trial ends until it ends, unless sent for this trial end', () => {
    const trialing = subscription({ status: 'trialing', trialStart: start, trialEnd: at(14), currentPeriodEnd: at(14) });
    expect(trialWillEndDue(trialing, new Date(at(11).getTime() - 1))).toBe(false);
    expect(trialWillEndDue(trialing, at(11))).toBe(true);
    expect(trialWillEndDue(trialing, new Date(at(14).getTime() - 1))).toBe(true);
    expect(trialWillEndDue(trialing, at(14))).toBe(false);
    expect(trialWillEndDue({ ...trialing, trialWillEndSentFor: at(14) }, at(12))).toBe(false);
    expect(trialWillEndDue({ ...trialing, status: 'active' }, at(12))).toBe(false);
    // A 2-day trial: at once.
    expect(trialWillEndDue(subscription({ status: 'trialing', trialEnd: at(2), currentPeriodEnd: at(2) }), start)).toBe(true);
  });

  it('upcoming: from 7 days before the renewal, once per period end, not for one ending at its period end', () => {
    const active = subscription({});
    expect(upcomingDue(active, new Date(at(24).getTime() - 1))).toBe(false);
    expect(upcomingDue(active, at(24))).toBe(true);
    expect(upcomingDue({ ...active, upcomingSentFor: at(31) }, at(25))).toBe(false);
    expect(upcomingDue({ ...active, upcomingSentFor: at(0) }, at(25))).toBe(true);
    expect(upcomingDue({ ...active, cancelAtPeriodEnd: true }, at(25))).toBe(false);
    expect(upcomingDue({ ...active, status: 'unpaid' }, at(25))).toBe(false);
    expect(upcomingDue(active, at(31))).toBe(false);
  });
});
