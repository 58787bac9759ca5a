import { describe, expect, it } from 'vitest';
import type { PublicCustomField, PublicSession } from '../api';
import { failureOutcome } from '../payment-attempt';
import { ApiError } from '../api';
import { customFieldProblem } from './CustomFields';
import { quantityProblem } from './QuantityStepper';

type Line = PublicSession['line_items'][number];
const line = (quantity: number, bounds?: { minimum: number; maximum: number }): Line => ({
  name: 'Beans',
  unit_amount: 1450,
  quantity,
  amount: 1450 * quantity,
  ...(bounds ? { adjustable_quantity: { enabled: true, ...bounds } } : {}),
});

describe('the quantity stepper’s check before it asks the server', () => {
  it('sends a whole quantity within the line’s bounds, and nothing else', () => {
    const lines = [line(2, { minimum: 1, maximum: 5 })];
    expect(quantityProblem(lines, 0, 5)).toBeNull();
    expect(quantityProblem(lines, 0, 1)).toBeNull();
    expect(quantityProblem(lines, 0, 6)).toBe('quantity.range');
    expect(quantityProblem(lines, 0, 0)).toBe('quantity.range');
    expect(quantityProblem(lines, 0, 2.5)).toBe('quantity.range');
    expect(quantityProblem(lines, 0, Number.NaN)).toBe('quantity.range');
  });

  it('lets a line go to 0 when another line keeps an item, never the last one', () => {
    const lines = [line(1, { minimum: 0, maximum: 3 }), line(1, { minimum: 0, maximum: 3 })];
    expect(quantityProblem(lines, 0, 0)).toBeNull();
    expect(quantityProblem([lines[0]!, { ...lines[1]!, quantity: 0 }], 0, 0)).toBe('quantity.keepOne');
  });

  it('refuses a line that is not adjustable', () => {
    expect(quantityProblem([line(1)], 0, 2)).toBe('quantity.failed');
  });
});

const text = (lengths: { minimum_length: number | null; maximum_length: number | null }, optional = false): PublicCustomField => ({
  key: 'note',
  label: { type: 'custom', custom: 'Gift note' },
  optional,
  type: 'text',
  text: { ...lengths, value: null },
});

describe('the custom fields’ check on the page (the server’s rules)', () => {
  it('asks for a required answer, and lets an optional one stay empty', () => {
    expect(customFieldProblem(text({ minimum_length: null, maximum_length: null }), '   ')).toEqual({ key: 'customFields.required' });
    expect(customFieldProblem(text({ minimum_length: 3, maximum_length: null }, true), '')).toBeNull();
  });

  it('counts characters (not UTF-16 units) within the field’s lengths, trimmed', () => {
    const field = text({ minimum_length: 2, maximum_length: 4 });
    expect(customFieldProblem(field, 'a')).toEqual({ key: 'customFields.length', values: { minimum: 2, maximum: 4 } });
    expect(customFieldProblem(field, ' 😀😀😀😀 ')).toBeNull();
    expect(customFieldProblem(field, 'abcde')).toEqual({ key: 'customFields.length', values: { minimum: 2, maximum: 4 } });
    expect(customFieldProblem(text({ minimum_length: 5, maximum_length: 5 }), 'abc')).toEqual({ key: 'customFields.lengthExact', values: { count: 5 } });
    // Without limits: 1 to 255, as the server takes.
    expect(customFieldProblem(text({ minimum_length: null, maximum_length: null }), 'x'.repeat(256))).toEqual({
      key: 'customFields.length',
      values: { minimum: 1, maximum: 255 },
    });
  });

  it('takes digits only for a numeric field', () => {
    const field: PublicCustomField = {
      key: 'vat',
      label: { type: 'custom', custom: 'VAT number' },
      optional: false,
      type: 'numeric',
      numeric: { minimum_length: 8, maximum_length: 8, value: null },
    };
    expect(customFieldProblem(field, '1234567A')).toEqual({ key: 'customFields.digits' });
    expect(customFieldProblem(field, '-1234567')).toEqual({ key: 'customFields.digits' });
    expect(customFieldProblem(field, '12345678')).toBeNull();
    expect(customFieldProblem(field, '1234567')).toEqual({ key: 'customFields.lengthExact', values: { count: 8 } });
  });

  it('takes a dropdown value among its options only', () => {
    const field: PublicCustomField = {
      key: 'size',
      label: { type: 'custom', custom: 'Size' },
      optional: false,
      type: 'dropdown',
      dropdown: {
        options: [
          { label: 'Small', value: 'S' },
          { label: 'Large', value: 'L' },
        ],
        value: null,
      },
    };
    expect(customFieldProblem(field, 'L')).toBeNull();
    expect(customFieldProblem(field, 'XL')).toEqual({ key: 'customFields.refused' });
    expect(customFieldProblem(field, '')).toEqual({ key: 'customFields.required' });
  });
});

describe('a payment the server refused for a custom field’s answer', () => {
  it('points at the field the server names, for either a missing or an invalid answer', () => {
    expect(
      failureOutcome(new ApiError(400, 'parameter_missing', 'Gift note: this field is required', undefined, 'custom_fields[note]'), 'card', {
        mayVerify: false,
      }),
    ).toEqual({
      kind: 'retry',
      key: 'form.fixErrors',
      customField: 'custom_fields[note]',
    });
    expect(
      failureOutcome(new ApiError(400, 'parameter_invalid', 'VAT: enter digits only', undefined, 'custom_fields[vat]'), 'google_pay', { mayVerify: false }),
    ).toMatchObject({ customField: 'custom_fields[vat]' });
  });
});
