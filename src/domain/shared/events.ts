import { newId } from './ids';
import { blankOf, defineResource, field, type EntityOf } from './resource-shape';

/** Event types a merchant can receive (design.md §3). */
export const eventTypes = [
  'checkout.session.completed',
  'checkout.session.expired',
  /**
   * An asynchronous payment was started and waits: a local payment method for the bank's
   * confirmation, a bank debit (ACH) for its settlement; `payment.succeeded` or `payment.failed`
   * follows.
   */
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.requires_capture',
  'payment.captured',
  'payment.canceled',
  /**
   * A bank debit (ACH) that had succeeded came back: the bank returned it after settlement (R01
   * insufficient funds, R02 account closed…). The payment keeps `succeeded` and gains `ach_return`.
   */
  'payment.returned',
  'refund.succeeded',
  'refund.failed',
  /** The cardholder's bank opened a dispute (chargeback) against a payment. */
  'dispute.created',
  /** A dispute took evidence, was submitted, or the processor moved it. */
  'dispute.updated',
  /** A dispute ended: won, lost, accepted or expired. */
  'dispute.closed',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  /** A payment method was saved to a customer (on a payment, a setup session, or by the merchant). */
  'payment_method.attached',
  /** A saved payment method was removed (by the merchant, or with its customer). */
  'payment_method.detached',
  /** Recurring billing (docs/billing.md): a subscription started, changed (status, period, price, cancellation) or ended. */
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  /** A trial ends in 3 days (at once for a shorter trial): the subscription, once per trial. */
  'customer.subscription.trial_will_end',
  /** An invoice was made for a period, made final, paid, or its charge failed. */
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
  /** A renewal is 7 days off (at once for a shorter period): a preview of its invoice, `id: null`, once per period. */
  'invoice.upcoming',
  /** The checkout page's scripts or security headers differ from the account's approved baseline (PCI DSS 11.6.1). */
  'checkout_page.changed',
] as const;
export type EventType = (typeof eventTypes)[number];

/** Test or live: keys, objects and processors never cross modes. */
export const modes = ['test', 'live'] as const;
export type Mode = (typeof modes)[number];

/**
 * A record that something changed state, written in the same transaction as the change (`evt_…`):
 * the one definition of its stored fields (resource-shape.ts). Its API object, which webhooks
 * deliver too, is `eventEnvelope`.
 */
export const events = defineResource('events', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  type: field.oneOf(eventTypes).fixedAtCreation(),
  /** The id of the object the event is about (`cs_…`, `pay_…`, `re_…`, `dp_…`, `cus_…`, `pm_…`, `cpc_…`). */
  objectId: field.text().fixedAtCreation().internal(),
  /** Snapshot of the object as the API shows it, taken at the moment of the change (the API's `data.object`). */
  data: field.json<Record<string, unknown>>().fixedAtCreation().internal(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('When the change happened (Unix seconds).'),
});

/** A record that something changed state, written in the same transaction as the change. */
export type DomainEvent = EntityOf<typeof events>;

/** A new event of `type` about `object` (its id, account and mode), carrying `data`, as of `at`. */
export function newEvent(object: { id: string; accountId: string; mode: Mode }, type: EventType, data: Record<string, unknown>, at: Date): DomainEvent {
  return { ...blankOf(events), id: newId('evt'), accountId: object.accountId, mode: object.mode, type, objectId: object.id, data, createdAt: at };
}
