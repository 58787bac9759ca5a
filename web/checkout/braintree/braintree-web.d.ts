/** The parts of braintree-web 3.79.1 the checkout page uses (the package ships no types). */
declare module 'braintree-web/client' {
  export function create(options: { authorization: string }): Promise<unknown>;
}
declare module 'braintree-web/hosted-fields' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/google-payment' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/apple-pay' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/data-collector' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/three-d-secure' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/paypal-checkout' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/venmo' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/local-payment' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
declare module 'braintree-web/us-bank-account' {
  export function create(options: Record<string, unknown>): Promise<unknown>;
}
