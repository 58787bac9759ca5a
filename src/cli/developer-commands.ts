import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { eventTypes, type EventType } from '../domain/shared/events';
import { Tillpoint, TillpointError, type CheckoutSession, type Event } from '../../sdk/node/src/index';

/**
 * `tillpoint listen` and `tillpoint trigger`: a merchant developer's tools. They only talk HTTP to
 * a running server with a secret key (through `@tillpoint/node`), never to the database.
 */

interface Connection {
  apiKey?: string;
  baseUrl?: string;
}

const DEFAULT_URL = 'http://localhost:4242';
const FORWARD_TIMEOUT_MS = 10_000;

function connect(options: Connection): { tp: Tillpoint; apiKey: string; baseUrl: string } {
  const apiKey = options.apiKey ?? process.env.TILLPOINT_API_KEY;
  if (!apiKey) {
    console.error('tillpoint: give a secret key with --api-key or TILLPOINT_API_KEY');
    process.exit(2);
  }
  const baseUrl = (options.baseUrl ?? process.env.TILLPOINT_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  return { tp: new Tillpoint(apiKey, { baseUrl }), apiKey, baseUrl };
}

/** Ends the command (exit 2) when any name is not an event type. */
function requireEventTypes(names: readonly string[]): void {
  const unknown = names.filter((name) => !(eventTypes as readonly string[]).includes(name));
  if (unknown.length) {
    console.error(`tillpoint: unknown event type ${unknown.join(', ')}; known: ${eventTypes.join(', ')}`);
    process.exit(2);
  }
}

function parseEventList(list: string | undefined): Set<string> | null {
  if (!list) return null;
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  requireEventTypes(names);
  return new Set(names);
}

const clockTime = (date = new Date()) => date.toISOString().replace('T', ' ').slice(0, 19);

/** Posts one event to the local URL, signed as Tillpoint signs webhooks; answers the status or why it failed. */
async function forward(tp: Tillpoint, url: string, secret: string, event: Event): Promise<string> {
  const body = JSON.stringify(event);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'tillpoint-cli (listen)',
        'tillpoint-signature': tp.webhooks.signatureHeader(body, secret),
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer().catch(() => undefined);
    return String(response.status);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `failed (${(error as Error).name === 'TimeoutError' ? 'timed out' : (cause ?? (error as Error).message)})`;
  }
}

async function listen(options: Connection & { forwardTo: string; events?: string }) {
  const { tp, baseUrl } = connect(options);
  const wanted = parseEventList(options.events);
  try {
    new URL(options.forwardTo);
  } catch {
    console.error(`tillpoint: --forward-to must be a URL, e.g. http://localhost:3000/webhooks`);
    process.exit(2);
  }
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());

  let announced = false;
  const events = tp.events.stream({
    signal: stop.signal,
    onConnect: () => {
      if (announced) {
        console.log(`${clockTime()}  reconnected`);
        return;
      }
      announced = true;
      console.log(
        [
          `Ready! Forwarding events from ${baseUrl} to ${options.forwardTo}${wanted ? ` (${[...wanted].join(', ')})` : ''}`,
          `Your webhook signing secret for this session is ${secret}`,
          'Verify it with tp.webhooks.constructEvent(rawBody, signatureHeader, secret). Press Ctrl-C to stop.',
        ].join('\n'),
      );
    },
    onDisconnect: (error) => console.log(`${clockTime()}  connection lost (${(error as Error).message}); reconnecting`),
  });
  try {
    for await (const event of events) {
      if (wanted && !wanted.has(event.type)) continue;
      const status = await forward(tp, options.forwardTo, secret, event);
      console.log(`${clockTime()}  ${event.type.padEnd(27)} ${event.id}  → POST ${options.forwardTo} [${status}]`);
    }
  } catch (error) {
    if (error instanceof TillpointError) {
      console.error(`tillpoint: ${error.message} (${error.code})`);
      process.exit(1);
    }
    throw error;
  }
}

/** Braintree's dispute test card: the test processor disputes its charge some seconds after capture. */
const DISPUTE_TEST_CARD = '4023898493988028';
/** How long `trigger dispute.*` waits for the dispute to open (the server looks every 5 s). */
const DISPUTE_WAIT_MS = 60_000;

/** The test nonce the built-in test processor approves (the amount decides the outcome). */
const TEST_NONCE = 'fake-valid-nonce';
/** The test US bank account whose debit settles, then is returned R01 (docs/test-processor.md). */
const ACH_RETURNED_R01_ACCOUNT = '1000000011';
/** 2001.00 in major units: the test processor declines it with insufficient funds (docs/test-processor.md). */
const DECLINED_AMOUNT = 200_100;

/** What `trigger` makes for each event type, through the API and the checkout page's own endpoint. */
async function trigger(type: EventType, options: Connection) {
  const { tp, apiKey, baseUrl } = connect(options);
  if (!apiKey.startsWith('sk_test_')) {
    console.error('tillpoint: trigger makes real objects; it only runs with a test secret key (sk_test_…)');
    process.exit(2);
  }
  const session = (amount = 2500, capture: 'automatic' | 'manual' = 'automatic') =>
    tp.checkout.sessions.create({
      currency: 'usd',
      line_items: [{ name: `tillpoint trigger ${type}`, unit_amount: amount, quantity: 1 }],
      capture_method: capture,
      metadata: { created_by: 'tillpoint trigger' },
    });
  /** Pays as the shopper's page does; answers the payment id (a declined attempt has one too). */
  const pay = async (paid: CheckoutSession, nonce = TEST_NONCE, paymentMethodType = 'card') => {
    const response = await fetch(`${baseUrl}/api/checkout/sessions/${paid.id}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payment_method_type: paymentMethodType, nonce, email: 'shopper@example.com' }),
    });
    if (!response.ok && response.status !== 402) throw new Error(`paying ${paid.id} answered ${response.status}: ${await response.text()}`);
    const [payment] = (await tp.payments.list({ checkout_session: paid.id, limit: 1 })).data;
    if (!payment) throw new Error(`paying ${paid.id} made no payment`);
    return payment.id;
  };

  /**
   * Pays with the dispute test card (typed on the page, as a shopper would) and waits for the
   * bank's dispute, which the test processor opens some seconds after capture.
   */
  const disputed = async () => {
    const s = await session();
    const tokenized = await fetch(`${baseUrl}/api/checkout/sessions/${s.id}/card-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ number: DISPUTE_TEST_CARD, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' }),
    });
    if (!tokenized.ok) throw new Error(`tokenizing the dispute test card answered ${tokenized.status}: ${await tokenized.text()}`);
    const paymentId = await pay(s, ((await tokenized.json()) as { nonce: string }).nonce);
    for (let waited = 0; waited < DISPUTE_WAIT_MS; waited += 1000) {
      const [dispute] = (await tp.disputes.list({ payment: paymentId, limit: 1 })).data;
      if (dispute) return { session: s, paymentId, dispute };
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Error(`no dispute opened for payment ${paymentId} within ${DISPUTE_WAIT_MS / 1000} s`);
  };

  /**
   * A monthly subscription on a test clock of its own (so the renewal and its retries happen at once):
   * the customer saves `card` on a subscription-mode checkout page, with a trial of `trialDays`.
   */
  const subscribed = async (options: { card?: string; trialDays?: number } = {}) => {
    const product = await tp.products.create({ name: `tillpoint trigger ${type}` });
    const price = await tp.prices.create({ product: product.id, currency: 'usd', unit_amount: 2000, recurring: { interval: 'month' } });
    const clock = await tp.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000), name: `tillpoint trigger ${type}` });
    const customer = await tp.customers.create({ email: 'shopper@example.com', test_clock: clock.id });
    const checkout = await tp.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      ...(options.trialDays ? { subscription_data: { trial_period_days: options.trialDays } } : {}),
    });
    let nonce = TEST_NONCE;
    if (options.card) {
      const tokenized = await fetch(`${baseUrl}/api/checkout/sessions/${checkout.id}/card-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ number: options.card, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' }),
      });
      if (!tokenized.ok) throw new Error(`tokenizing ${options.card} answered ${tokenized.status}: ${await tokenized.text()}`);
      nonce = ((await tokenized.json()) as { nonce: string }).nonce;
    }
    const response = await fetch(`${baseUrl}/api/checkout/sessions/${checkout.id}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payment_method_type: 'card', nonce, email: 'shopper@example.com' }),
    });
    if (!response.ok) throw new Error(`checking out ${checkout.id} answered ${response.status}: ${await response.text()}`);
    const subscription = (await tp.checkout.sessions.retrieve(checkout.id)).subscription;
    if (!subscription) throw new Error(`checkout ${checkout.id} started no subscription`);
    return { clock, subscription };
  };

  const made: string[] = [];
  switch (type) {
    case 'customer.subscription.created':
    case 'invoice.created':
    case 'invoice.finalized':
    case 'invoice.paid': {
      const { subscription } = await subscribed();
      made.push(`subscription ${subscription} (its first invoice paid)`);
      break;
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const { subscription } = await subscribed();
      if (type === 'customer.subscription.updated') await tp.subscriptions.update(subscription, { cancel_at_period_end: true });
      else await tp.subscriptions.cancel(subscription);
      made.push(`subscription ${subscription} (${type === 'customer.subscription.updated' ? 'to cancel at period end' : 'canceled'})`);
      break;
    }
    case 'customer.subscription.trial_will_end': {
      // A trial shorter than the notice's 3 days is told at once that it ends.
      const { subscription } = await subscribed({ trialDays: 2 });
      made.push(`subscription ${subscription} (a 2-day trial)`);
      break;
    }
    case 'invoice.upcoming': {
      // Its test clock moved to a week before the first renewal, when the notice falls due.
      const { clock, subscription } = await subscribed();
      const { current_period_end: renewal } = await tp.subscriptions.retrieve(subscription);
      await tp.testHelpers.testClocks.advance(clock.id, { frozen_time: renewal - 7 * 86400 });
      made.push(`subscription ${subscription} (its test clock moved to a week before its renewal)`);
      break;
    }
    case 'invoice.payment_failed': {
      // The 0341 card saves, then declines: the trial's end brings a renewal that fails.
      const { clock, subscription } = await subscribed({ card: '4000000000000341', trialDays: 1 });
      await tp.testHelpers.testClocks.advance(clock.id, { frozen_time: clock.frozen_time + 86400 + 3600 });
      made.push(`subscription ${subscription} (its first charge declined)`);
      break;
    }
    case 'dispute.created':
    case 'dispute.updated':
    case 'dispute.closed': {
      const { session: s, paymentId, dispute } = await disputed();
      made.push(`checkout session ${s.id}`, `payment ${paymentId}`, `dispute ${dispute.id}`);
      if (type === 'dispute.updated') {
        await tp.disputes.addEvidence(dispute.id, { text: 'Delivered and signed for by the cardholder' });
        made.push('its text evidence');
      }
      if (type === 'dispute.closed') {
        await tp.disputes.accept(dispute.id);
        made.push('accepted');
      }
      break;
    }
    case 'checkout.session.completed':
    case 'payment.succeeded': {
      const s = await session();
      made.push(`checkout session ${s.id}`, `payment ${await pay(s)}`);
      break;
    }
    case 'payment.processing': {
      // A local payment (iDEAL, in EUR) approved in the test window, as its shopper would: it waits
      // for the test processor's bank, which confirms it some seconds later (payment.succeeded).
      const s = await tp.checkout.sessions.create({
        currency: 'eur',
        line_items: [{ name: `tillpoint trigger ${type}`, unit_amount: 2500, quantity: 1 }],
        payment_method_types: ['ideal'],
        metadata: { created_by: 'tillpoint trigger' },
      });
      const post = async (path: string, body: unknown) => {
        const response = await fetch(`${baseUrl}/api/checkout/sessions/${s.id}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${path} of ${s.id} answered ${response.status}: ${await response.text()}`);
        return (await response.json()) as { payment: string };
      };
      const { payment } = await post('/local-payments', { payment_method_type: 'ideal', email: 'shopper@example.com' });
      await post(`/local-payments/${payment}/answer`, { answer: 'approve' });
      made.push(`checkout session ${s.id}`, `iDEAL payment ${payment} (approved; its bank confirms it in a few seconds)`);
      break;
    }
    case 'payment.returned': {
      // An ACH bank debit from the test account the bank returns (R01 insufficient funds): it waits for
      // its settlement (payment.processing), settles (payment.succeeded), then comes back (payment.returned).
      const s = await tp.checkout.sessions.create({
        currency: 'usd',
        line_items: [{ name: `tillpoint trigger ${type}`, unit_amount: 2500, quantity: 1 }],
        payment_method_types: ['us_bank_account'],
        metadata: { created_by: 'tillpoint trigger' },
      });
      const tokenized = await fetch(`${baseUrl}/api/checkout/sessions/${s.id}/bank-account-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          routing_number: '011000015',
          account_number: ACH_RETURNED_R01_ACCOUNT,
          account_type: 'checking',
          account_holder_type: 'personal',
          account_holder_name: 'Test Shopper',
          mandate_text: 'By clicking Pay, you authorize the merchant to debit the bank account above for this payment (tillpoint trigger).',
        }),
      });
      if (!tokenized.ok) throw new Error(`tokenizing the test bank account answered ${tokenized.status}: ${await tokenized.text()}`);
      const paymentId = await pay(s, ((await tokenized.json()) as { nonce: string }).nonce, 'us_bank_account');
      made.push(
        `checkout session ${s.id}`,
        `ACH payment ${paymentId} (processing; it settles in a few seconds, then its bank returns it with R01 insufficient funds)`,
      );
      break;
    }
    case 'payment.failed': {
      const s = await session(DECLINED_AMOUNT);
      made.push(`checkout session ${s.id}`, `declined payment ${await pay(s)}`);
      break;
    }
    case 'payment.requires_capture': {
      const s = await session(2500, 'manual');
      made.push(`checkout session ${s.id}`, `authorized payment ${await pay(s)}`);
      break;
    }
    case 'payment.captured':
    case 'payment.canceled': {
      const s = await session(2500, 'manual');
      const paymentId = await pay(s);
      if (type === 'payment.captured') await tp.payments.capture(paymentId);
      else await tp.payments.cancel(paymentId);
      made.push(`checkout session ${s.id}`, `payment ${paymentId} (${type === 'payment.captured' ? 'captured' : 'canceled'})`);
      break;
    }
    case 'refund.succeeded': {
      const s = await session();
      const paymentId = await pay(s);
      const refund = await tp.refunds.create({ payment: paymentId, reason: 'requested_by_customer' });
      made.push(`checkout session ${s.id}`, `payment ${paymentId}`, `refund ${refund.id}`);
      break;
    }
    case 'refund.failed': {
      // A partial refund before the processor settles is refused, and recorded as a failed refund.
      const s = await session();
      const paymentId = await pay(s);
      try {
        const refund = await tp.refunds.create({ payment: paymentId, amount: 100 });
        console.error(
          `tillpoint: refund ${refund.id} succeeded, so no refund.failed fired: this server settles test payments at once. ` +
            'Start it with TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS=3600 to see a partial refund refused before settlement.',
        );
        process.exitCode = 1;
        return;
      } catch (error) {
        if (!(error instanceof TillpointError) || error.code !== 'payment_not_settled') throw error;
      }
      made.push(`checkout session ${s.id}`, `payment ${paymentId}`, 'a partial refund refused before settlement');
      break;
    }
    case 'checkout.session.expired': {
      const s = await session();
      await tp.checkout.sessions.expire(s.id);
      made.push(`checkout session ${s.id} (expired)`);
      break;
    }
    case 'customer.created':
    case 'customer.updated':
    case 'customer.deleted': {
      const customer = await tp.customers.create({ email: 'shopper@example.com', metadata: { created_by: 'tillpoint trigger' } });
      if (type === 'customer.updated') await tp.customers.update(customer.id, { name: 'Test Shopper' });
      if (type === 'customer.deleted') await tp.customers.del(customer.id);
      made.push(`customer ${customer.id}${type === 'customer.created' ? '' : type === 'customer.updated' ? ' (updated)' : ' (deleted)'}`);
      break;
    }
  }
  console.log(`Triggered ${type} in test mode: made ${made.join(', ')}.`);
}

export function registerDeveloperCommands(program: Command): void {
  const connection = (command: Command) =>
    command
      .option('--api-key <key>', 'a secret key of the account (default: TILLPOINT_API_KEY)')
      .option('--base-url <url>', `the Tillpoint server (default: TILLPOINT_URL or ${DEFAULT_URL})`);

  connection(
    program
      .command('listen')
      .description("forward the account's events, as they happen, to a local URL, signed with a secret printed at start")
      .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:3000/webhooks')
      .option('--events <types>', 'only these event types, comma-separated'),
  ).action(listen);

  connection(
    program
      .command('trigger')
      .description(`make the real objects in test mode so that an event fires: ${eventTypes.join(', ')}`)
      .argument('<event>', 'the event type'),
  ).action(async (type: string, options: Connection) => {
    requireEventTypes([type]);
    try {
      await trigger(type as EventType, options);
    } catch (error) {
      if (error instanceof TillpointError) {
        console.error(`tillpoint: ${error.message} (${error.code}${error.requestId ? `, ${error.requestId}` : ''})`);
        process.exit(1);
      }
      throw error;
    }
  });
}
