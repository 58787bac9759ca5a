import { useCallback, useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { PublicCustomField } from '../api';
import type { MessageKey, Translate } from '../i18n';
import { useHydrated } from './shop-api';

/** What the payment form asks of the custom fields when the shopper pays. */
export interface CustomFieldsHandle {
  /**
   * The answers by key (null for an optional field left empty) when every field passes the page's
   * checks; otherwise null, with each field's message shown and the first such field focused.
   */
  answers(): Record<string, string | null> | null;
  /** The server refused the answer its error names (`custom_fields[<key>]`): the message shows beside that field, focused. */
  refused(param: string): void;
}

export type FieldProblem = { key: MessageKey; values?: Record<string, number> } | null;

/** The largest answer the server takes (CUSTOM_FIELD_LIMITS.length in the domain). */
const MAX_LENGTH = 255;

function lengthsOf(field: PublicCustomField): { minimum: number; maximum: number } {
  const bounds = field.type === 'text' ? field.text : field.type === 'numeric' ? field.numeric : null;
  return { minimum: bounds?.minimum_length ?? 1, maximum: bounds?.maximum_length ?? MAX_LENGTH };
}

/**
 * The page's check of one answer, the same rules the server applies (sessions/shopper-options.ts):
 * a required field answered, digits only for a numeric field, a length within the field's limits
 * (counted in characters, as the server counts), a dropdown value among its options.
 */
export function customFieldProblem(field: PublicCustomField, raw: string): FieldProblem {
  const value = raw.trim();
  if (value === '') return field.optional ? null : { key: 'customFields.required' };
  if (field.type === 'dropdown') return field.dropdown.options.some((option) => option.value === value) ? null : { key: 'customFields.refused' };
  if (field.type === 'numeric' && !/^[0-9]+$/.test(value)) return { key: 'customFields.digits' };
  const { minimum, maximum } = lengthsOf(field);
  const length = [...value].length;
  if (length >= minimum && length <= maximum) return null;
  return minimum === maximum ? { key: 'customFields.lengthExact', values: { count: minimum } } : { key: 'customFields.length', values: { minimum, maximum } };
}

/**
 * The session's questions (up to 3: text, digits, or a choice), asked in the payment form and sent
 * with the payment. Loaded only for a session with custom fields.
 */
export default function CustomFields({
  fields,
  t,
  disabled,
  handle,
}: {
  fields: PublicCustomField[];
  t: Translate;
  disabled: boolean;
  handle: Ref<CustomFieldsHandle>;
}) {
  const id = useId();
  const hydrated = useHydrated();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      fields.map((field) => [
        field.key,
        (field.type === 'text' ? field.text.value : field.type === 'numeric' ? field.numeric.value : field.dropdown.value) ?? '',
      ]),
    ),
  );
  const [problems, setProblems] = useState<Record<string, FieldProblem>>({});
  const inputs = useRef<Record<string, HTMLInputElement | HTMLSelectElement | null>>({});
  // Read by `answers`, which the payment form calls outside a render.
  const current = useRef(values);
  current.current = values;
  const check = useCallback((field: PublicCustomField) => customFieldProblem(field, current.current[field.key] ?? ''), []);
  const checkAll = useCallback(() => Object.fromEntries(fields.map((field) => [field.key, check(field)])), [fields, check]);
  // A field the server refused takes the focus once the form is no longer locked by the payment.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (focusNext.current && !disabled) {
      inputs.current[focusNext.current]?.focus();
      focusNext.current = null;
    }
  });

  // Any try to pay shows what is left to fix here, even when the card form stops it first.
  const fieldset = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    const form = fieldset.current?.form;
    const showAll = () => setProblems(checkAll());
    form?.addEventListener('submit', showAll);
    return () => form?.removeEventListener('submit', showAll);
  }, [checkAll]);

  useImperativeHandle(
    handle,
    () => ({
      answers() {
        const found = checkAll();
        setProblems(found);
        const first = fields.find((field) => found[field.key]);
        if (first) {
          inputs.current[first.key]?.focus();
          return null;
        }
        return Object.fromEntries(fields.map((field) => [field.key, (current.current[field.key] ?? '').trim() || null]));
      },
      refused(param) {
        const key = param.slice('custom_fields['.length, -1);
        const field = fields.find((candidate) => candidate.key === key);
        if (!field) return;
        // The page's own message when it finds one; otherwise the server's refusal, said generally.
        setProblems((before) => ({ ...before, [key]: check(field) ?? { key: 'customFields.refused' } }));
        focusNext.current = key;
      },
    }),
    [fields, check, checkAll],
  );

  /** Leaving a field shows its message, as the email field does. */
  const leave = (field: PublicCustomField) => setProblems((before) => ({ ...before, [field.key]: check(field) }));

  const change = (field: PublicCustomField, value: string) => {
    setValues((before) => ({ ...before, [field.key]: value }));
    // A message shown goes once the answer is right; a new one waits until the field is left or the shopper pays.
    if (problems[field.key] && !customFieldProblem(field, value)) setProblems((before) => ({ ...before, [field.key]: null }));
  };

  return (
    <fieldset ref={fieldset} className="custom-fields" data-testid="custom-fields">
      <legend>{t('customFields.heading')}</legend>
      {fields.map((field, i) => {
        const inputId = `${id}-${i}`;
        const problem = problems[field.key];
        const label = field.optional ? t('address.optional', { label: field.label.custom }) : field.label.custom;
        const common = {
          id: inputId,
          name: `custom_fields[${field.key}]`,
          className: 'field-input',
          required: !field.optional,
          disabled: disabled || !hydrated,
          'aria-invalid': Boolean(problem),
          'aria-describedby': `${inputId}-error`,
          value: values[field.key] ?? '',
          onBlur: () => leave(field),
          ref: (element: HTMLInputElement | HTMLSelectElement | null) => {
            inputs.current[field.key] = element;
          },
        };
        return (
          <div key={field.key} className={`field${problem ? ' has-error' : ''}`}>
            <label htmlFor={inputId}>{label}</label>
            <div className="field-box">
              {field.type === 'dropdown' ? (
                <select {...common} onChange={(e) => change(field, e.target.value)}>
                  <option value="">{t('address.select')}</option>
                  {field.dropdown.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  {...common}
                  type="text"
                  autoComplete="off"
                  {...(field.type === 'numeric' ? { inputMode: 'numeric' as const } : {})}
                  onChange={(e) => change(field, e.target.value)}
                />
              )}
            </div>
            <p className="field-error" id={`${inputId}-error`} aria-live="polite">
              {problem ? t(problem.key, problem.values) : ''}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}
