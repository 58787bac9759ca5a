import type { CustomField } from '../sessions/shopper-option-types';
import { modes } from '../shared/events';
import type { Address, ShippingDetails } from '../addresses/entities';
import { paymentStatuses, refundStatuses } from './state-machine';
import { declineCodes } from '../shared/errors';
import { defineResource, definePart, field, type EntityOf } from '../shared/resource-shape';
import type { TotalDetails } from '../pricing/totals';

export const captureMethods = ['automatic', 'manual'] as const;
export type CaptureMethod = (typeof captureMethods)[number];
import type { PaymentMethodType } from './payment-method-types';
import { usBankAccountHolderTypes, usBankAccountTypes, type AchReturn } from './bank-debits';
export { paymentMethodTypes, type PaymentMethodType } from './payment-method-types';

/** The card or wallet that paid, as far as it may be kept: never the number or the CVC. */
export interface PaymentMethodDetails {
  type: PaymentMethodType;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  /** Same card, same fingerprint, within one install; a keyed hash, not reversible. */
  fingerprint: string | null;
  /** PayPal: the payer's email, as PayPal reveals it. */
  payerEmail?: string | null;
  /** Venmo: the account's username. */
  username?: string | null;
  /** A local payment method (iDEAL, Bancontact…): the shopper's bank, as the processor reported it. */
  bank?: BankDetails | null;
  /** A bank debit (`us_bank_account`): the account as far as it may be shown, never its number. */
  usBankAccount?: UsBankAccountDetails | null;
}

/** A US bank account that paid (ACH): its last 4 digits only, never the account number. */
export const usBankAccountDetails = definePart({
  bankName: field.text().nullable().describe("The bank's name, when the processor tells it."),
  last4: field.text().describe('The last 4 digits of the account number; never the number.'),
  routingNumber: field.text().describe("The bank's routing (ABA) number."),
  accountType: field.oneOf(usBankAccountTypes),
  accountHolderType: field.oneOf(usBankAccountHolderTypes),
});
export type UsBankAccountDetails = EntityOf<typeof usBankAccountDetails>;

/** The bank a local payment was made from: never the account number, only the IBAN's last 4 characters. */
export const bankDetails = definePart({
  /** The bank as iDEAL names it (`ing`, `rabobank`…), when its BIC is one it lists; else null. */
  name: field.text().nullable().shownAs('bank').describe('The bank as iDEAL names it (`ing`, `rabobank`…), when its BIC is one it lists.'),
  bic: field.text().nullable().describe("The bank's BIC, as the processor reported it."),
  ibanLast4: field.text().nullable().describe("The last 4 characters of the shopper's IBAN; never the account number."),
});
export type BankDetails = EntityOf<typeof bankDetails>;

/**
 * One attempt to pay a session, or a charge of a saved payment method from the server (design.md §3,
 * `pay_…`): the one definition of its stored fields (resource-shape.ts). Its API object is
 * `paymentSnapshot`, which shapes the card or wallet, 3-D Secure, the totals and the addresses.
 */
export const payments = defineResource('payments', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  status: field.oneOf(paymentStatuses),
  amount: field.integer().fixedAtCreation().describe("Amount asked, an integer in the currency's minor unit (cents for USD)."),
  amountCaptured: field.integer().describe("Amount captured, an integer in the currency's minor unit (cents for USD)."),
  amountRefunded: field.integer().describe("Amount refunded so far, an integer in the currency's minor unit (cents for USD)."),
  currency: field.currency().fixedAtCreation(),
  captureMethod: field.oneOf(captureMethods).fixedAtCreation(),
  /** The session paid; null for a merchant-initiated charge of a saved method (`POST /v1/payments`). */
  checkoutSessionId: field
    .text()
    .nullable()
    .fixedAtCreation()
    .shownAs('checkout_session')
    .describe('The session this payment is an attempt at; null for a charge of a saved payment method made with `POST /v1/payments`.'),
  /** The customer (`cus_…`) paying; null when none, or once the customer was deleted (its deletion clears it). */
  customerId: field
    .text()
    .nullable()
    .fixedAtCreation()
    .shownAs('customer')
    .describe('The customer who paid; null when none, or once that customer was deleted.'),
  customerEmail: field.text().nullable(),
  /** The invoice (`in_…`) this payment is an attempt at; null for any other payment. */
  invoiceId: field.text().nullable().fixedAtCreation().shownAs('invoice').describe('The invoice this payment is an attempt at, or null.'),
  /** The card or wallet that paid, once known (the API spells it out as `payment_method`). */
  paymentMethod: field.json<PaymentMethodDetails>().nullable().internal(),
  processor: field.text().examples('test', 'braintree'),
  processorTransactionId: field.text().nullable(),
  /**
   * A local payment method's payment (migration 0054): the processor's id of the payment the shopper
   * approves at the bank (Braintree's local payment `paymentId`), which its confirmation names.
   */
  processorPaymentId: field.text().nullable().fixedAtCreation().internal(),
  processorResponse: field.json<{ code: string; text: string }>().nullable(),
  failureCode: field.text().nullable(),
  declineCode: field.oneOf(declineCodes).nullable(),
  threeDSecure: field.json<{ status: string; liabilityShifted: boolean }>().nullable().internal(),
  /** The processor's fraud screening of the sale (migration 0055), when it returned one. */
  riskDecision: field
    .text()
    .nullable()
    .describe(
      "The processor's fraud screening of the payment (Braintree's risk decision: `Approve`, `Review`, `Decline`, `Not Evaluated`), when it returned one.",
    )
    .examples('Approve'),
  /**
   * A bank debit that came back after it settled (migration 0056, ADR 0107): the NACHA code, its
   * reason and when. The payment stays `succeeded` in its history; nothing remains to refund.
   */
  achReturn: field
    .json<AchReturn>()
    .nullable()
    .describe(
      'A bank debit (`us_bank_account`) returned by the bank after it settled: the NACHA return code (`R01`…), its reason (`insufficient_funds`…) and when (Unix seconds). The money went back to the shopper; null otherwise.',
    ),
  /** The session's discount, shipping and tax when this attempt was made (docs/pricing.md). */
  totalDetails: field.json<TotalDetails>().nullable().fixedAtCreation().internal(),
  // Addresses (migration 0034, ADR 0068).
  /** The session's shipping name and address when this attempt was made. */
  shippingDetails: field.json<ShippingDetails>().nullable().fixedAtCreation(),
  /** The session's billing address when this attempt was made (the API's `customer_details.address`). */
  billingAddress: field.json<Address>().nullable().fixedAtCreation().internal(),
  /** The session's custom fields with the shopper's answers, as given with this attempt. */
  customFields: field.json<CustomField[]>().whenMissing([]).fixedAtCreation().internal(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time (Unix seconds).'),
  updatedAt: field.timestamp().internal(),
});

/** One attempt to pay a session, or a charge of a saved payment method from the server. */
export type Payment = EntityOf<typeof payments>;

/** Why the merchant refunds, when they say. */
export const refundReasons = ['requested_by_customer', 'duplicate', 'fraudulent'] as const;
export type RefundReason = (typeof refundReasons)[number];

/**
 * Money sent back to the shopper from a succeeded payment (design.md §3, `re_…`): the one definition
 * of its stored fields (resource-shape.ts). Its API object is `refundSnapshot`.
 */
export const refunds = defineResource('refunds', {
  id: field.text().fixedAtCreation(),
  accountId: field.text().fixedAtCreation().internal(),
  mode: field.oneOf(modes).fixedAtCreation().internal(),
  paymentId: field.text().fixedAtCreation().shownAs('payment').describe('The refunded payment.').examples('pay_test_q9W8e7R6t5Y4u3I2o1P0'),
  amount: field.integer().fixedAtCreation().describe("Amount refunded, an integer in the currency's minor unit (cents for USD)."),
  currency: field.currency().fixedAtCreation(),
  reason: field.oneOf(refundReasons).nullable().fixedAtCreation(),
  status: field.oneOf(refundStatuses),
  /** Why a failed refund failed, e.g. `payment_not_settled`, `processor_unavailable`. */
  failureReason: field.text().nullable().describe('Why a failed refund failed, e.g. `payment_not_settled`.'),
  /** Who asked: an API key id (`key_…`) or, from the dashboard, a user id. */
  createdBy: field.text().nullable().fixedAtCreation().describe('The API key (`key_…`) or dashboard user that asked.'),
  /** The processor's id for the refund (or for the void that replaced it). */
  processorRefundId: field.text().nullable(),
  createdAt: field.timestamp().fixedAtCreation().shownAs('created').describe('Creation time (Unix seconds).'),
  updatedAt: field.timestamp().shownAs('updated').describe('Last change (Unix seconds).'),
});

/** Money sent back to the shopper from a succeeded payment. */
export type Refund = EntityOf<typeof refunds>;
