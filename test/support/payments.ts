import { expect } from 'vitest';
import type { PaymentProcessor } from '../../src/domain/processors/ports';
import type { SqlClient } from '../../src/persistence/sql-client';
import type { Harness } from './harness';
import { createSessionOf, dumpDatabase, merchantCall, payCall, tokenize, type IntegrationContext } from './integration';

/**
 * A shopper pays a fresh USD session of `amount` with the Visa test card, through the real checkout
 * API; returns the payment as the merchant API shows it.
 */
export async function paidPayment(ctx: IntegrationContext, amount = 5000, captureMethod: 'automatic' | 'manual' = 'automatic'): Promise<Record<string, any>> {
  const session = await createSessionOf(ctx, amount, { capture_method: captureMethod });
  const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id));
  expect(paid.statusCode, paid.body).toBe(200);
  const read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`);
  const payment = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${read.json().payment}`);
  expect(payment.statusCode, payment.body).toBe(200);
  // What happens next happens later, so events and lists order as a merchant would see them.
  ctx.h.clock.advance(1000);
  return payment.json();
}

/** Reads a payment through the merchant API. */
export async function readPayment(ctx: IntegrationContext, id: string): Promise<Record<string, any>> {
  const res = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Tables that record the request itself (key use, rate counters, idempotency), not business data. */
const bookkeepingTables = ['api_keys', 'rate_limit_counters', 'idempotency_records', 'api_requests', 'api_request_scopes'];

/** Every business table: to prove a refusal changed nothing. */
export async function dumpBusinessData(db: SqlClient): Promise<Record<string, string[]>> {
  const dump = await dumpDatabase(db);
  for (const table of bookkeepingTables) delete dump[table];
  return dump;
}

/**
 * The processor of every session paid through `h` holds its answer to `authorize` until `answer()`:
 * the payment stays `processing` meanwhile. `asked` resolves once the processor has been asked;
 * `restore()` puts the directory back as it was.
 */
export function holdProcessorAnswers(h: Harness): { asked: Promise<void>; answer: () => void; restore: () => void } {
  let markAsked!: () => void;
  const asked = new Promise<void>((resolve) => (markAsked = resolve));
  let answer!: () => void;
  const mayAnswer = new Promise<void>((resolve) => (answer = resolve));
  const processors = h.tillpoint.deps.processors;
  const forScope = processors.forScope.bind(processors);
  processors.forScope = async (scope) => {
    const processor = await forScope(scope);
    return Object.assign(Object.create(processor) as PaymentProcessor, {
      authorize: async (request: Parameters<PaymentProcessor['authorize']>[0]) => {
        markAsked();
        await mayAnswer;
        return processor.authorize(request);
      },
    });
  };
  return { asked, answer, restore: () => (processors.forScope = forScope) };
}
