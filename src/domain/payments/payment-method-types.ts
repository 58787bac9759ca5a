/** The local payment methods (local-payment-methods.ts): braintree-web's `local-payment` component takes each by this name as its `paymentType`. */
export const localPaymentMethodTypes = ['ideal', 'bancontact', 'sofort', 'giropay', 'eps', 'p24', 'mybank', 'blik'] as const;
export type LocalPaymentMethodType = (typeof localPaymentMethodTypes)[number];

/**
 * The bank debits (bank-debits.ts): the shopper gives their account and accepts a mandate; the
 * processor debits it and the money settles days later. `us_bank_account` is ACH, braintree-web's
 * `us-bank-account` component.
 */
export const bankDebitMethodTypes = ['us_bank_account'] as const;
export type BankDebitMethodType = (typeof bankDebitMethodTypes)[number];

/**
 * Every way a shopper can pay: the values of `payment_method_types` and `payment_method_type`, the
 * local payment methods (paid at the shopper's bank, confirmed later) and the bank debits
 * (settled days later) last. A module of its own, free
 * of the payment's definition, because the checkout page's first script reads it
 * (offered-payment-methods.ts).
 */
export const paymentMethodTypes = ['card', 'google_pay', 'apple_pay', 'paypal', 'venmo', ...localPaymentMethodTypes, ...bankDebitMethodTypes] as const;
export type PaymentMethodType = (typeof paymentMethodTypes)[number];

/** Whether a way to pay is a local payment method (paid at the shopper's bank, asynchronous). */
export function isLocalPaymentMethod(type: string): type is LocalPaymentMethodType {
  return (localPaymentMethodTypes as readonly string[]).includes(type);
}

/** Whether a way to pay is a bank debit (ACH: the processor debits the account, settled days later). */
export function isBankDebitMethod(type: string): type is BankDebitMethodType {
  return (bankDebitMethodTypes as readonly string[]).includes(type);
}
