import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertTransition,
  canTransition,
  checkoutSessionStatuses,
  checkoutSessionTransitions,
  IllegalTransitionError,
  paymentStatuses,
  paymentStatusesHoldingSession,
  paymentTransitions,
  refundStatuses,
  refundTransitions,
  type TransitionTable,
} from './state-machine';

/**
 * The transitions design.md §4 allows, written out here independently of state-machine.ts:
 * - CheckoutSession: open → complete | expired.
 * - Payment: processing → requires_action → processing → succeeded | requires_capture | failed;
 *   requires_capture → succeeded (capture) | canceled (void or 7-day expiry).
 * - Refund: pending → succeeded | failed.
 *
 * One edge is not spelled out in design.md §4: requires_action → failed (a 3-D Secure challenge that
 * fails or is abandoned ends the attempt without a new processor round trip). design.md §2 lists the
 * "3-D Secure challenge → declined" path on the checkout page, so it is accepted here as intended.
 */
const design = {
  checkoutSession: {
    initial: 'open',
    edges: { open: ['complete', 'expired'], complete: [], expired: [] } as Record<string, string[]>,
    terminal: ['complete', 'expired'],
  },
  payment: {
    initial: 'processing',
    edges: {
      processing: ['requires_action', 'requires_capture', 'succeeded', 'failed'],
      requires_action: ['processing', 'failed'],
      requires_capture: ['succeeded', 'canceled'],
      succeeded: [],
      failed: [],
      canceled: [],
    } as Record<string, string[]>,
    terminal: ['succeeded', 'failed', 'canceled'],
  },
  refund: {
    initial: 'pending',
    edges: { pending: ['succeeded', 'failed'], succeeded: [], failed: [] } as Record<string, string[]>,
    terminal: ['succeeded', 'failed'],
  },
};

interface Machine {
  kind: string;
  statuses: readonly string[];
  table: TransitionTable<string>;
  expected: (typeof design)[keyof typeof design];
}

const machines: Machine[] = [
  { kind: 'checkout_session', statuses: checkoutSessionStatuses, table: checkoutSessionTransitions, expected: design.checkoutSession },
  { kind: 'payment', statuses: paymentStatuses, table: paymentTransitions, expected: design.payment },
  { kind: 'refund', statuses: refundStatuses, table: refundTransitions, expected: design.refund },
];

/** Every state reachable from `start` by following the edges of design.md §4. */
function reachable(edges: Record<string, string[]>, start: string): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of edges[queue.shift()!] ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

describe.each(machines)('$kind state machine', ({ kind, statuses, table, expected }) => {
  it('has exactly the states design.md §4 names', () => {
    expect([...statuses].sort()).toEqual(Object.keys(expected.edges).sort());
    expect(Object.keys(table).sort()).toEqual(Object.keys(expected.edges).sort());
  });

  it('allows exactly the transitions design.md §4 gives', () => {
    for (const from of statuses) {
      expect([...table[from]!].sort(), `from ${from}`).toEqual([...expected.edges[from]!].sort());
    }
  });

  it('terminal states have no way out', () => {
    for (const terminal of expected.terminal) {
      expect(table[terminal], terminal).toEqual([]);
      for (const to of statuses) {
        expect(canTransition(table, terminal, to), `${terminal} → ${to}`).toBe(false);
        expect(() => assertTransition(kind, table, terminal, to)).toThrow(IllegalTransitionError);
      }
    }
  });

  it('no state transitions to itself', () => {
    for (const s of statuses) expect(canTransition(table, s, s), s).toBe(false);
  });

  it('assertTransition throws IllegalTransitionError for every pair not in the table, and only those', () => {
    let refused = 0;
    for (const from of statuses) {
      for (const to of statuses) {
        const allowed = expected.edges[from]!.includes(to);
        expect(canTransition(table, from, to), `${from} → ${to}`).toBe(allowed);
        if (allowed) {
          expect(() => assertTransition(kind, table, from, to), `${from} → ${to}`).not.toThrow();
        } else {
          refused++;
          let thrown: unknown;
          try {
            assertTransition(kind, table, from, to);
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `${from} → ${to}`).toBeInstanceOf(IllegalTransitionError);
          expect((thrown as Error).name).toBe('IllegalTransitionError');
          expect((thrown as Error).message).toBe(`${kind} cannot go from ${from} to ${to}`);
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
  });

  it('random sequences of attempted transitions never leave the states reachable from the initial one (property)', () => {
    const allowedStates = reachable(expected.edges, expected.initial);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...statuses), { maxLength: 40 }), (attempts) => {
        let state = expected.initial;
        const path = [state];
        for (const to of attempts) {
          const legal = canTransition(table, state, to);
          if (legal) {
            assertTransition(kind, table, state, to);
            state = to;
            path.push(state);
          } else {
            expect(() => assertTransition(kind, table, state, to)).toThrow(IllegalTransitionError);
          }
          expect(allowedStates.has(state), `reached ${state} via ${path.join(' → ')}`).toBe(true);
          // A legal step is always one design.md §4 lists.
          if (legal) expect(expected.edges[path[path.length - 2]!]).toContain(state);
        }
        // Once in a terminal state, nothing moves it again.
        const firstTerminal = path.findIndex((s) => expected.terminal.includes(s));
        if (firstTerminal >= 0) expect(path.length - 1).toBe(firstTerminal);
      }),
      { numRuns: 1000 },
    );
  });

  it('every state is reachable from the initial one (no dead entries in the table)', () => {
    expect([...reachable(table as Record<string, string[]>, expected.initial)].sort()).toEqual([...statuses].sort());
  });
});

describe('payment specifics', () => {
  it('a payment goes through 3-D Secure and back to processing, then succeeds', () => {
    const path = ['processing', 'requires_action', 'processing', 'succeeded'] as const;
    for (let i = 1; i < path.length; i++) {
      expect(() => assertTransition('payment', paymentTransitions, path[i - 1]!, path[i]!)).not.toThrow();
    }
  });

  it('a manual-capture payment is captured or voided, never failed or refunded back to processing', () => {
    expect(canTransition(paymentTransitions, 'requires_capture', 'succeeded')).toBe(true);
    expect(canTransition(paymentTransitions, 'requires_capture', 'canceled')).toBe(true);
    expect(canTransition(paymentTransitions, 'requires_capture', 'failed')).toBe(false);
    expect(canTransition(paymentTransitions, 'requires_capture', 'processing')).toBe(false);
  });

  it('a succeeded payment cannot be voided (refunds do not change its status)', () => {
    expect(canTransition(paymentTransitions, 'succeeded', 'canceled')).toBe(false);
  });

  it('a failed attempt releases the session for a retry; all other states hold it', () => {
    expect(paymentStatusesHoldingSession).not.toContain('failed');
    for (const s of paymentStatuses) {
      if (s !== 'failed') expect(paymentStatusesHoldingSession, s).toContain(s);
    }
  });
});
