import { TillpointError } from '../shared/errors';
import type { CheckoutSession, LineItem } from './entities';
import type { AdjustableQuantity, CustomField, CustomFieldType } from './shopper-option-types';

export type { AdjustableQuantity, CustomField, CustomFieldType } from './shopper-option-types';

/**
 * What the shopper may change or answer on a session (Stripe's names): a line's quantity within the
 * merchant's bounds, and up to three custom fields. The browser sends a quantity or an answer, never
 * a price: the session is priced again by pricing/totals.ts.
 */

/** The largest quantity a line may have (design.md §5). */
export const QUANTITY_CAP = 999;
/** Stripe's defaults: down to 0 (removing the line), up to 99. */
const DEFAULT_ADJUSTABLE = { minimum: 0, maximum: 99 } as const;

function invalid(param: string, message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param });
}

/** The bounds of an adjustable line, checked against its starting quantity. Null when not adjustable. */
export function adjustableQuantityOf(
  input: { enabled: boolean; minimum?: number; maximum?: number } | undefined,
  quantity: number,
  at: string,
): AdjustableQuantity | null {
  if (!input) return null;
  if (!input.enabled) {
    if (input.minimum !== undefined || input.maximum !== undefined) {
      throw invalid(`${at}[adjustable_quantity][enabled]`, 'minimum and maximum need adjustable_quantity[enabled] true');
    }
    return null;
  }
  const minimum = input.minimum ?? DEFAULT_ADJUSTABLE.minimum;
  const maximum = input.maximum ?? Math.max(DEFAULT_ADJUSTABLE.maximum, 0);
  if (!Number.isInteger(minimum) || minimum < 0 || minimum > QUANTITY_CAP) {
    throw invalid(`${at}[adjustable_quantity][minimum]`, `minimum must be a whole number from 0 to ${QUANTITY_CAP}`);
  }
  if (!Number.isInteger(maximum) || maximum < 1 || maximum > QUANTITY_CAP) {
    throw invalid(`${at}[adjustable_quantity][maximum]`, `maximum must be a whole number from 1 to ${QUANTITY_CAP}`);
  }
  if (minimum > maximum) throw invalid(`${at}[adjustable_quantity][minimum]`, 'minimum must not be more than maximum');
  if (quantity < minimum || quantity > maximum) {
    throw invalid(`${at}[quantity]`, `quantity must be within adjustable_quantity, from ${minimum} to ${maximum}`);
  }
  return { enabled: true, minimum, maximum };
}

/**
 * The session's lines with one line's quantity changed by the shopper. Refused, with nothing changed:
 * a line that is not adjustable, a quantity outside its bounds, or a cart left with no item (Stripe
 * keeps the last item).
 */
export function linesWithQuantity(session: Pick<CheckoutSession, 'lineItems'>, index: number, quantity: number): LineItem[] {
  const line = session.lineItems[index];
  if (!line) throw invalid('line_item', `The session has no line item ${index}`);
  const bounds = line.adjustableQuantity;
  if (!bounds?.enabled) throw invalid('quantity', "This item's quantity cannot be changed");
  if (!Number.isInteger(quantity) || quantity < bounds.minimum || quantity > bounds.maximum) {
    throw invalid('quantity', `Choose a quantity from ${bounds.minimum} to ${bounds.maximum}`);
  }
  const lines = session.lineItems.map((item, i) => (i === index ? { ...item, quantity, amount: item.unitAmount * quantity } : item));
  if (lines.every((item) => item.quantity === 0)) throw invalid('quantity', 'Keep at least one item');
  return lines;
}

export interface NewCustomField {
  key: string;
  label: { type: 'custom'; custom: string };
  type: CustomFieldType;
  optional?: boolean;
  dropdown?: { options: Array<{ label: string; value: string }> };
  text?: { minimum_length?: number; maximum_length?: number };
  numeric?: { minimum_length?: number; maximum_length?: number };
}

export const CUSTOM_FIELD_LIMITS = {
  count: 3,
  label: 50,
  keyPattern: /^[A-Za-z0-9]{1,200}$/,
  options: 200,
  optionLabel: 100,
  optionValue: 100,
  length: 255,
} as const;

/** The session's custom fields from Stripe's shape, each checked; the first broken rule names its parameter. */
export function customFieldsOf(input: NewCustomField[] | undefined): CustomField[] {
  const fields = input ?? [];
  if (fields.length > CUSTOM_FIELD_LIMITS.count) throw invalid('custom_fields', `At most ${CUSTOM_FIELD_LIMITS.count} custom fields`);
  const keys = new Set<string>();
  return fields.map((field, i) => {
    const at = `custom_fields[${i}]`;
    if (!CUSTOM_FIELD_LIMITS.keyPattern.test(field.key)) throw invalid(`${at}[key]`, 'key must be 1 to 200 letters and digits');
    if (keys.has(field.key)) throw invalid(`${at}[key]`, `key '${field.key}' is used twice`);
    keys.add(field.key);
    const label = field.label.custom.trim();
    if (label.length < 1 || label.length > CUSTOM_FIELD_LIMITS.label)
      throw invalid(`${at}[label][custom]`, `label must be 1 to ${CUSTOM_FIELD_LIMITS.label} characters`);
    const made: CustomField = { key: field.key, label, type: field.type, optional: field.optional ?? false, value: null };
    for (const other of ['dropdown', 'text', 'numeric'] as const) {
      if (other !== field.type && field[other] !== undefined) throw invalid(`${at}[${other}]`, `${other} is only for custom fields of type ${other}`);
    }
    if (field.type === 'dropdown') {
      const options = field.dropdown?.options ?? [];
      if (options.length < 1 || options.length > CUSTOM_FIELD_LIMITS.options) {
        throw invalid(`${at}[dropdown][options]`, `A dropdown needs 1 to ${CUSTOM_FIELD_LIMITS.options} options`);
      }
      const values = new Set<string>();
      made.options = options.map((option, j) => {
        const label = option.label.trim();
        if (label.length < 1 || label.length > CUSTOM_FIELD_LIMITS.optionLabel) {
          throw invalid(`${at}[dropdown][options][${j}][label]`, `label must be 1 to ${CUSTOM_FIELD_LIMITS.optionLabel} characters`);
        }
        if (!/^[A-Za-z0-9]{1,100}$/.test(option.value) || values.has(option.value)) {
          throw invalid(`${at}[dropdown][options][${j}][value]`, 'value must be 1 to 100 letters and digits, unique in the dropdown');
        }
        values.add(option.value);
        return { label, value: option.value };
      });
    } else {
      const bounds = field[field.type] ?? {};
      const minimum = bounds.minimum_length ?? null;
      const maximum = bounds.maximum_length ?? null;
      for (const [name, value] of [
        ['minimum_length', minimum],
        ['maximum_length', maximum],
      ] as const) {
        if (value !== null && (!Number.isInteger(value) || value < 1 || value > CUSTOM_FIELD_LIMITS.length)) {
          throw invalid(`${at}[${field.type}][${name}]`, `${name} must be a whole number from 1 to ${CUSTOM_FIELD_LIMITS.length}`);
        }
      }
      if (minimum !== null && maximum !== null && minimum > maximum) {
        throw invalid(`${at}[${field.type}][minimum_length]`, 'minimum_length must not be more than maximum_length');
      }
      made.minimumLength = minimum;
      made.maximumLength = maximum;
    }
    return made;
  });
}

/** A checked field back in Stripe's input shape: what a payment link gives each session it opens. */
export function customFieldInputOf(field: CustomField): NewCustomField {
  const input: NewCustomField = { key: field.key, label: { type: 'custom', custom: field.label }, type: field.type, optional: field.optional };
  if (field.type === 'dropdown') return { ...input, dropdown: { options: (field.options ?? []).map(({ label, value }) => ({ label, value })) } };
  const lengths = {
    ...(field.minimumLength != null ? { minimum_length: field.minimumLength } : {}),
    ...(field.maximumLength != null ? { maximum_length: field.maximumLength } : {}),
  };
  return field.type === 'numeric' ? { ...input, numeric: lengths } : { ...input, text: lengths };
}

/**
 * The session's fields with the shopper's answers, each checked: a required field answered, a text
 * or number within its lengths, a number of digits only, a dropdown value among its options. An
 * answer to a field the session does not have is refused. The error's `param` is
 * `custom_fields[<key>]`, so the page can show its message next to the field.
 */
export function answerCustomFields(fields: CustomField[], answers: Record<string, string | null | undefined>): CustomField[] {
  for (const key of Object.keys(answers)) {
    if (!fields.some((field) => field.key === key)) throw invalid(`custom_fields[${key}]`, `The session has no custom field '${key}'`);
  }
  return fields.map((field) => {
    const param = `custom_fields[${field.key}]`;
    const raw = answers[field.key];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value === '') {
      if (!field.optional) throw new TillpointError('parameter_missing', `${field.label}: this field is required`, { param });
      return { ...field, value: null };
    }
    if (field.type === 'dropdown') {
      if (!field.options?.some((option) => option.value === value)) throw invalid(param, `${field.label}: choose one of the options`);
      return { ...field, value };
    }
    if (field.type === 'numeric' && !/^[0-9]+$/.test(value)) throw invalid(param, `${field.label}: enter digits only`);
    const length = [...value].length;
    const minimum = field.minimumLength ?? 1;
    const maximum = field.maximumLength ?? CUSTOM_FIELD_LIMITS.length;
    if (length < minimum || length > maximum) {
      throw invalid(
        param,
        minimum === maximum ? `${field.label}: enter exactly ${minimum} characters` : `${field.label}: enter ${minimum} to ${maximum} characters`,
      );
    }
    return { ...field, value };
  });
}

/** Stripe's shape of a custom field, with its answer (`text.value`, `numeric.value`, `dropdown.value`). */
export function customFieldSnapshot(field: CustomField) {
  const base = { key: field.key, label: { type: 'custom' as const, custom: field.label }, optional: field.optional };
  if (field.type === 'dropdown') return { ...base, type: 'dropdown' as const, dropdown: { options: field.options ?? [], value: field.value } };
  const lengths = { minimum_length: field.minimumLength ?? null, maximum_length: field.maximumLength ?? null, value: field.value };
  return field.type === 'numeric' ? { ...base, type: 'numeric' as const, numeric: lengths } : { ...base, type: 'text' as const, text: lengths };
}
