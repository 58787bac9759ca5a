/**
 * Stands in for Node's `crypto` where braintree-web's data collector asks for it in the browser:
 * finding no `randomBytes`, it uses the browser's `crypto.getRandomValues`, as it would anyway.
 */
export default {};
