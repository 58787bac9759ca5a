/** The shapes of the shopper's options on a session (rules in shopper-options.ts); no imports, so any entity may use them. */

/** Stripe's `line_items[].adjustable_quantity`: the shopper picks a quantity from `minimum` to `maximum`. */
export interface AdjustableQuantity {
  enabled: boolean;
  minimum: number;
  maximum: number;
}

export type CustomFieldType = 'text' | 'numeric' | 'dropdown';

/** A question the page asks (Stripe's `custom_fields[]`); `value` is the shopper's answer once given. */
export interface CustomField {
  key: string;
  label: string;
  type: CustomFieldType;
  optional: boolean;
  /** Dropdown choices, in the merchant's order. */
  options?: Array<{ label: string; value: string }>;
  /** Text and numeric: length bounds of the answer. */
  minimumLength?: number | null;
  maximumLength?: number | null;
  value: string | null;
}
