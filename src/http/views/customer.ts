import { customerSnapshot } from '../../domain/shared/event-payloads';

/** The customer as the merchant API shows it: the same object its events carry. */
export const customerView = customerSnapshot;
