import { ApiError, checkoutApi, type PublicSession } from './api';
import type { HostedFieldsInstance } from './braintree/braintree-components';
import { errorMessageKey } from './i18n';
import type { NonceResult } from './payment-attempt';
import { cjs } from './braintree/module-exports';

/**
 * A saved card's CVC typed again, where the session or the processor asks for it: the test
 * processor's own input, tokenized by our server (`/cvc-tokens`), or Braintree's Hosted Fields
 * with only the CVV field, whose CVV-only nonce goes with the saved card's token. Loaded with the
 * saved cards' chunk only.
 */
export interface SavedCardCvcField {
  /** The field is Braintree's frame, mounted into a container; otherwise the page's own input. */
  readonly frame: boolean;
  mount(container: HTMLElement, label: string): Promise<void>;
  tokenize(paymentMethod: string, typed: string): Promise<NonceResult>;
  teardown(): void;
}

export function savedCardCvcField(session: PublicSession): SavedCardCvcField {
  const clientToken = session.processor.name === 'braintree' ? (session.processor.clientToken as string | null | undefined) : null;
  if (!clientToken) {
    return {
      frame: false,
      mount: async () => undefined,
      async tokenize(paymentMethod, typed) {
        if (!/^\d{3,4}$/.test(typed)) return { key: typed ? 'decline.incorrect_cvc' : 'field.cvc.empty', field: 'cvc' };
        try {
          return await checkoutApi.tokenizeCvc(session.id, { payment_method: paymentMethod, cvc: typed });
        } catch (error) {
          const e = error instanceof ApiError ? error : new ApiError(0, 'network', '');
          return { key: e.param === 'cvc' ? 'decline.incorrect_cvc' : errorMessageKey(e.code, e.declineCode), field: 'cvc' };
        }
      },
      teardown: () => undefined,
    };
  }
  let fields: HostedFieldsInstance | null = null;
  return {
    frame: true,
    async mount(container, label) {
      // The same authorization as the card form's: braintree-web reuses that client's configuration.
      const [clientModule, hostedFieldsModule] = await Promise.all([import('braintree-web/client'), import('braintree-web/hosted-fields')]);
      const client = await cjs(clientModule).create({ authorization: clientToken });
      fields = (await cjs(hostedFieldsModule).create({
        client,
        // The card form's frame styles (hosted-fields-setup.ts), kept out of this chunk's imports.
        styles: { input: { 'font-size': '16px', color: '#1a1a1a' } },
        fields: { cvv: { container, internalLabel: label } },
      })) as HostedFieldsInstance;
    },
    async tokenize() {
      if (!fields) return { key: 'error.processor_unavailable' };
      try {
        return { nonce: (await fields.tokenize()).nonce };
      } catch {
        return { key: 'field.cvc.empty', field: 'cvc' };
      }
    },
    teardown() {
      void fields?.teardown?.();
      fields = null;
    },
  };
}
