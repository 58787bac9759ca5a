/**
 * Every way a shopper can pay: the values of `payment_method_types` and `payment_method_type`. A
 * module of its own, free of the payment's definition, because the checkout page's first script
 * reads it (offered-payment-methods.ts).
 */
export const paymentMethodTypes = ['card', 'google_pay', 'apple_pay', 'paypal', 'venmo'] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];
