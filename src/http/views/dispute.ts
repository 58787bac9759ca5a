import { disputeSnapshot } from '../../domain/shared/event-payloads';

/** The dispute as the merchant API shows it: the same object its events carry. */
export const disputeView = disputeSnapshot;
