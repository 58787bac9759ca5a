import type { AuthorizeResult } from './ports';

/** What a processor said about a follow-up operation on a transaction (capture, void, refund). */
export type OperationResult =
  | { outcome: 'succeeded'; transactionId: string; response: { code: string; text: string } | null }
  /**
   * The processor refused for a reason the domain acts on: `not_settled` (refund before settlement:
   * Braintree only allows a void), `not_capturable`, `not_voidable`, `not_refundable`, `declined`.
   */
  | {
      outcome: 'refused';
      reason: 'not_settled' | 'not_capturable' | 'not_voidable' | 'not_refundable' | 'declined';
      message: string;
      response: { code: string; text: string } | null;
    }
  | { outcome: 'unavailable'; response: { code: string; text: string } | null }
  /** No answer: the operation may or may not have happened. */
  | { outcome: 'unknown'; reason: string };

/** What the processor knows of a payment we sent it, found by our payment id (its order id). */
export type FoundTransaction =
  | { found: false }
  | {
      found: true;
      /** The authorization as it would have been reported had the call returned. */
      authorization: Exclude<AuthorizeResult, { outcome: 'unknown' } | { outcome: 'invalid_payment_method' }>;
      /** Processor-side status, e.g. `authorized`, `submitted_for_settlement`, `settled`, `voided`. */
      status: string;
      /** Minor units submitted for settlement (captured); 0 while only authorized or voided before capture. */
      amountCaptured: number;
      /** The authorization or the unsettled capture was voided: nothing was or will be charged. */
      voided: boolean;
      /** The refunds the processor made, each with our refund id when it carries one. */
      refunds: ProcessorRefund[];
    };

/** A refund as the processor keeps it: our refund id is its order id. */
export interface ProcessorRefund {
  refundId: string | null;
  processorRefundId: string;
  amount: number;
}

/**
 * The operations after an authorization. Every processor adapter implements them; amounts are minor
 * units of `currency`. Like `authorize`, they report and never decide our states.
 */
export interface ProcessorLifecycle {
  /** Capture (submit for settlement) up to the authorized amount; the rest is released. */
  capture(request: { transactionId: string; amount: number; currency: string }): Promise<OperationResult>;
  /** Void an authorization or an unsettled capture. */
  void(request: { transactionId: string }): Promise<OperationResult>;
  /** Refund a settled transaction, fully or in part; `refused: not_settled` when it is not settled yet. */
  refund(request: { transactionId: string; amount: number; currency: string; refundId: string }): Promise<OperationResult>;
  /** Finds a transaction by our payment id, for reconciliation after an unknown outcome. */
  findByPaymentId(request: { paymentId: string }): Promise<FoundTransaction>;
}
