import { TillpointError } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { ThreeDSecureVerification } from '../../processors/ports';
import { openSessionForPayment } from '../rules';

/** A verification as the checkout page reads it. */
export interface ThreeDSecureAnswer {
  nonce: string;
  status: string;
  liability_shifted: boolean;
  liability_shift_possible: boolean;
  challenge: boolean;
}

/**
 * 3-D Secure in test mode, as the test processor emulates Braintree's sandbox: verifies a card
 * nonce of the session (`answer` absent), or answers the test challenge of a verified one. With
 * Braintree the page runs braintree-web's verifyCard instead, against Braintree.
 */
export async function verifyThreeDSecure(deps: Deps, options: { sessionId: string; nonce: string; answer?: { passed: boolean } }): Promise<ThreeDSecureAnswer> {
  const session = await openSessionForPayment(deps, options.sessionId);
  if (!session.paymentMethodTypes.includes('card')) {
    throw new TillpointError('parameter_invalid', 'Cards are not offered for this session', { param: 'payment_method_type' });
  }
  const processor = await deps.processors.forScope(session);
  if (session.mode !== 'test' || !processor.verifyThreeDSecure || !processor.answerThreeDSecureChallenge) {
    throw new TillpointError('parameter_invalid', "3-D Secure runs through the processor's own client here", { param: 'nonce' });
  }
  const result: ThreeDSecureVerification = options.answer
    ? await processor.answerThreeDSecureChallenge({ nonce: options.nonce, passed: options.answer.passed })
    : await processor.verifyThreeDSecure({ nonce: options.nonce });
  if (!result.ok) throw new TillpointError('parameter_invalid', result.message, { param: 'nonce' });
  return {
    nonce: result.nonce,
    status: result.status,
    liability_shifted: result.liabilityShifted,
    liability_shift_possible: result.liabilityShiftPossible,
    challenge: result.challenge,
  };
}
