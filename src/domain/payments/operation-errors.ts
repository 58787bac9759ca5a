import { TillpointError, type ErrorCode } from '../shared/errors';
import type { OperationResult } from '../processors/ports';

/**
 * The API error a failed follow-up operation (capture, void, refund) means for the caller. A
 * refusal becomes `refusedCode`, with the processor's own words; an outage or a silence becomes the
 * processor error of design.md §8.
 */
export function operationError(result: Exclude<OperationResult, { outcome: 'succeeded' }>, refusedCode: ErrorCode): TillpointError {
  switch (result.outcome) {
    case 'refused':
      return new TillpointError(refusedCode, `The processor refused: ${result.message}`);
    case 'unavailable':
      return new TillpointError('processor_unavailable', 'The payment processor is unavailable; try again shortly');
    case 'unknown':
      return new TillpointError('processor_timeout', 'The processor did not answer in time; the outcome is not known yet, check again before retrying');
  }
}
