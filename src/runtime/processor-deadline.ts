import type { AuthorizeRequest, AuthorizeResult, PaymentProcessor } from '../domain/processors/ports';

/**
 * Holds a processor's `authorize` to a deadline: past it, the outcome counts as unknown and the
 * payment stays `processing` for reconciliation. The deadline is shorter than a payment's lease
 * (domain/payments/rules.ts), so a live request has answered, one way or the other, before
 * reconciliation may decide for it; a charge the processor makes even later is undone by
 * reconciliation's late-answer checks.
 */
export function withAuthorizeDeadline<P extends PaymentProcessor>(processor: P, deadlineMs: number): P {
  return Object.assign(Object.create(processor) as P, {
    authorize(request: AuthorizeRequest): Promise<AuthorizeResult> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<AuthorizeResult>((resolve) => {
        timer = setTimeout(() => resolve({ outcome: 'unknown', reason: `no answer within ${deadlineMs / 1000} s` }), deadlineMs);
      });
      return Promise.race([processor.authorize(request), deadline]).finally(() => clearTimeout(timer));
    },
  });
}
