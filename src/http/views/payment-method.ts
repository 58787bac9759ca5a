import { paymentMethodSnapshot } from '../../domain/shared/event-payloads';

/** A saved payment method as the merchant API shows it: the same object its events carry. */
export const paymentMethodView = paymentMethodSnapshot;
