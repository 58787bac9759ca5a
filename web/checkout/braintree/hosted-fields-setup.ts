import type { CardFieldName, CardFieldSlot } from '../card-form/engine';

/**
 * The card fields in the page's order: engine.ts `cardFieldNames`, repeated so that the page's first
 * script carries none of the engines' shared code.
 */
const fieldNames: readonly CardFieldName[] = ['number', 'expiry', 'cvc', 'postalCode'];

/**
 * How the page sets up Braintree Hosted Fields, shared by the page's first script (which starts
 * them before React, early-hosted-fields.ts) and the card engine that adopts them
 * (card-form/hosted-fields-engine.ts). No React and no braintree-web code here.
 */

/** Our field names → Hosted Fields' names. */
export const hostedNames: Record<CardFieldName, string> = {
  number: 'number',
  expiry: 'expirationDate',
  cvc: 'cvv',
  postalCode: 'postalCode',
};
export const ourNames = Object.fromEntries(Object.entries(hostedNames).map(([ours, theirs]) => [theirs, ours])) as Record<string, CardFieldName>;

/**
 * Styles inside the frames, matching the built-in engine's inputs (styles.css `.field-input`):
 * Hosted Fields accepts only a short list of CSS properties, so borders and focus rings stay on the
 * page's `.field-box`, which the page styles from the state this engine reports.
 */
export const frameStyles = {
  input: { 'font-size': '16px', 'font-family': 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', color: '#1a1a1a' },
  '::placeholder': { color: '#6b6b6b' },
  '.invalid': { color: '#b00020' },
};

/** Hosted Fields' `fields` option for the page's slots: each frame in its slot, with the page's words. */
export function hostedFieldsOption(slots: Record<CardFieldName, Pick<CardFieldSlot, 'container' | 'placeholder' | 'label'>>) {
  return Object.fromEntries(
    fieldNames.map((field) => {
      const slot = slots[field];
      return [
        hostedNames[field],
        {
          container: slot.container,
          // The page's own words for the shopper's locale: placeholder and the frame's label.
          placeholder: slot.placeholder || undefined,
          internalLabel: slot.label,
        },
      ];
    }),
  );
}

/**
 * The slots as the server rendered them (CardFields: `data-card-slot`, `data-placeholder`, and the
 * `<label for="card-…">` naming each), read before React hydrates; null when the page has no card form.
 */
export function renderedCardSlots(doc: Document): Record<CardFieldName, Pick<CardFieldSlot, 'container' | 'placeholder' | 'label'>> | null {
  const slots: Partial<Record<CardFieldName, Pick<CardFieldSlot, 'container' | 'placeholder' | 'label'>>> = {};
  for (const field of fieldNames) {
    const container = doc.querySelector<HTMLElement>(`[data-card-slot="${field}"]`);
    if (!container) return null;
    slots[field] = {
      container,
      placeholder: container.dataset.placeholder ?? '',
      label: doc.querySelector(`label[for="card-${field}"]`)?.textContent ?? '',
    };
  }
  return slots as Record<CardFieldName, Pick<CardFieldSlot, 'container' | 'placeholder' | 'label'>>;
}
