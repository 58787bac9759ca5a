import { expect } from 'vitest';
import { periodicJobs } from '../../src/runtime/scheduler';
import { createSessionOf, merchantCall, payCall, tokenize, type IntegrationContext } from './integration';

/** Braintree's dispute test card, as the shopper types it. */
export const disputeCard = { number: '4023 8984 9398 8028', exp_month: 12, exp_year: 2034, cvc: '123' };

/** Runs one periodic job of the server once, by name, as the scheduler would. */
export async function runJob(ctx: IntegrationContext, name: string): Promise<unknown> {
  const job = periodicJobs.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`no job ${name}`);
  const errors: unknown[] = [];
  const result = await job.run(ctx.h.tillpoint.deps, { info: () => {}, error: (details) => errors.push(details) });
  expect(errors).toEqual([]);
  return result;
}

/**
 * A shopper pays with the dispute test card; some seconds later the bank opens a dispute, which the
 * test processor's job records. Returns the payment id and the dispute as the API shows it.
 */
export async function disputedPayment(ctx: IntegrationContext, amount = 5000): Promise<{ paymentId: string; dispute: Record<string, any> }> {
  const session = await createSessionOf(ctx, amount);
  const paid = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id, disputeCard));
  expect(paid.statusCode, paid.body).toBe(200);
  const read = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`);
  const paymentId = read.json().payment as string;
  ctx.h.clock.advance(6000);
  await runJob(ctx, 'test-processor-disputes');
  const list = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/disputes?payment=${paymentId}`);
  expect(list.statusCode, list.body).toBe(200);
  expect(list.json().data).toHaveLength(1);
  ctx.h.clock.advance(1000);
  return { paymentId, dispute: list.json().data[0] };
}
