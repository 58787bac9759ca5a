import { refundSnapshot } from '../../domain/shared/event-payloads';

/** The refund as the merchant API shows it: the same object its events carry. */
export const refundView = refundSnapshot;
