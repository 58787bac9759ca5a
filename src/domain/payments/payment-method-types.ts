/**
 * Every way a shopper can pay: the values of `payment_method_types` and `payment_method_type`. A
 * module of its own, free of the payment's definition, because the checkout page's first script
 * reads it (offered-payment-methods.ts).
 */
export const paymentMethodTypes = [
  'card',
  'google_pay',
  'apple_pay',
  'paypal',
  'venmo',
  // Local payment methods (local-payment-methods.ts): paid at the shopper's bank, confirmed later.
  'ideal',
  'bancontact',
  'sofort',
  'giropay',
  'eps',
  'p24',
  'mybank',
  'blik',
] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/** The local payment methods: braintree-web's `local-payment` component takes each by this name as its `paymentType`. */
export const localPaymentMethodTypes = [
  'ideal',
  'bancontact',
  'sofort',
  'giropay',
  'eps',
  'p24',
  'mybank',
  'blik',
] as const satisfies readonly PaymentMethodType[];
export type LocalPaymentMethodType = (typeof localPaymentMethodTypes)[number];

/** Whether a way to pay is a local payment method (paid at the shopper's bank, asynchronous). */
export function isLocalPaymentMethod(type: string): type is LocalPaymentMethodType {
  return (localPaymentMethodTypes as readonly string[]).includes(type);
}
