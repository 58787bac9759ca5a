import { TillpointError } from '../../shared/errors';

/**
 * A charge's failure that is already recorded on its payment and invoice (the processor declined,
 * did not answer in time, or was out of reach): the invoice stays owed and is retried as planned.
 */
export const chargeRefusalCodes: readonly string[] = ['card_declined', 'processor_timeout', 'processor_unavailable'];

export function isChargeRefusal(error: unknown): error is TillpointError {
  return error instanceof TillpointError && chargeRefusalCodes.includes(error.code);
}
