import valid from 'card-validator';
import {
  CardEngineState,
  cardFieldNames,
  type CardFieldEvent,
  type CardFieldName,
  type CardFieldSlot,
  type CardFormEngine,
  type CardFormState,
  type TokenizeOutcome,
} from './engine';

const MAX_EXPIRY_YEARS = 20;

const inputAttributes: Record<CardFieldName, { autocomplete: string; inputMode: string; name: string }> = {
  number: { autocomplete: 'cc-number', inputMode: 'numeric', name: 'cardnumber' },
  expiry: { autocomplete: 'cc-exp', inputMode: 'numeric', name: 'exp-date' },
  cvc: { autocomplete: 'cc-csc', inputMode: 'numeric', name: 'cvc' },
  postalCode: { autocomplete: 'postal-code', inputMode: 'text', name: 'postal' },
};

/** Card number with spaces at the brand's gaps: `4111 1111 1111 1111`, `3782 822463 10005`. */
export function formatCardNumber(digits: string): string {
  const card = valid.number(digits).card;
  const gaps = card?.gaps ?? [4, 8, 12];
  const maxLength = Math.max(...(card?.lengths ?? [19]));
  const kept = digits.slice(0, maxLength);
  let out = '';
  for (let i = 0; i < kept.length; i++) {
    if (gaps.includes(i)) out += ' ';
    out += kept[i];
  }
  return out;
}

/** `0` → `0`, `1` → `1`, `4` → `04 / `, `123` → `12 / 3`. */
export function formatExpiry(raw: string, deleting: boolean): string {
  let digits = raw.replace(/\D/g, '').slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length < 2) return digits;
  if (digits.length === 2) return deleting ? digits : `${digits} / `;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** Keeps the caret after the same number of digits once the value is reformatted. */
function reformat(input: HTMLInputElement, formatted: string) {
  const caret = input.selectionStart ?? input.value.length;
  const atEnd = caret >= input.value.length;
  const digitsBefore = input.value.slice(0, caret).replace(/\D/g, '').length;
  input.value = formatted;
  if (document.activeElement !== input) return;
  let position = formatted.length;
  if (!atEnd) {
    position = 0;
    for (let seen = 0; position < formatted.length && seen < digitsBefore; position++) {
      if (/\d/.test(formatted[position]!)) seen++;
    }
  }
  input.setSelectionRange(position, position);
}

/**
 * The built-in engine: plain inputs with formatting and validation by Braintree's own
 * `card-validator`, tokenized by our server. Used with the test processor.
 */
export class BuiltinCardEngine extends CardEngineState implements CardFormEngine {
  readonly kind = 'builtin' as const;
  private inputs = new Map<CardFieldName, HTMLInputElement>();
  private forcedInvalid = new Set<CardFieldName>();
  private givenPostalCode: string | null = null;

  constructor(
    private readonly tokenizer: (card: {
      number: string;
      exp_month: number;
      exp_year: number;
      cvc: string;
      postal_code: string;
    }) => Promise<{ nonce: string; brand: string | null; last4: string | null }>,
  ) {
    super();
  }

  async mount(slots: Record<CardFieldName, CardFieldSlot>): Promise<void> {
    for (const field of cardFieldNames) {
      const slot = slots[field];
      const input = document.createElement('input');
      const attributes = inputAttributes[field];
      input.id = slot.inputId;
      input.name = attributes.name;
      input.type = 'text';
      input.setAttribute('autocomplete', attributes.autocomplete);
      input.inputMode = attributes.inputMode;
      input.placeholder = slot.placeholder;
      input.dir = 'ltr'; // digits stay left to right on a right-to-left page
      input.spellcheck = false;
      input.className = 'field-input';
      input.setAttribute('aria-describedby', slot.describedBy);
      input.setAttribute('aria-invalid', 'false');
      input.required = true;
      if (field === 'postalCode') input.maxLength = 10;
      input.addEventListener('input', (event) => this.onInput(field, input, event as InputEvent));
      input.addEventListener('focus', () => this.update(field, { isFocused: true }, 'focus'));
      input.addEventListener('blur', () => this.update(field, { isFocused: false }, 'blur'));
      slot.container.replaceChildren(input);
      this.inputs.set(field, input);
    }
  }

  setDisabled(disabled: boolean): void {
    for (const input of this.inputs.values()) input.disabled = disabled;
  }

  setInvalid(field: CardFieldName, invalid: boolean): void {
    if (invalid) this.forcedInvalid.add(field);
    else this.forcedInvalid.delete(field);
    this.update(field, this.validate(field), 'blur');
  }

  setAriaInvalid(field: CardFieldName, invalid: boolean): void {
    this.inputs.get(field)?.setAttribute('aria-invalid', String(invalid));
  }

  setPostalCode(postalCode: string | null): void {
    this.givenPostalCode = postalCode;
    this.update('postalCode', this.validate('postalCode'), 'input');
  }

  focus(field: CardFieldName): void {
    this.inputs.get(field)?.focus();
  }

  teardown(): void {
    for (const input of this.inputs.values()) input.remove();
    this.inputs.clear();
    this.forgetListeners();
  }

  async tokenize(): Promise<TokenizeOutcome> {
    for (const field of cardFieldNames) this.state.fields[field] = { ...this.state.fields[field], ...this.validate(field) };
    const invalid = cardFieldNames.filter((field) => !this.state.fields[field].isValid);
    if (invalid.length) {
      for (const field of invalid) this.emit({ field, type: 'blur' });
      return { ok: false, reason: 'invalid', fields: invalid };
    }
    const expiry = valid.expirationDate(this.value('expiry'), MAX_EXPIRY_YEARS);
    const year = Number(expiry.year);
    try {
      const token = await this.tokenizer({
        number: this.value('number').replace(/\D/g, ''),
        exp_month: Number(expiry.month),
        exp_year: year < 100 ? 2000 + year : year,
        cvc: this.value('cvc'),
        postal_code: (this.givenPostalCode ?? this.value('postalCode')).trim(),
      });
      return { ok: true, ...token };
    } catch (error) {
      const e = error as { code?: string; declineCode?: string; param?: string };
      return { ok: false, reason: 'error', code: e.code ?? 'internal_error', declineCode: e.declineCode, param: e.param };
    }
  }

  private value(field: CardFieldName): string {
    return this.inputs.get(field)?.value ?? '';
  }

  private onInput(field: CardFieldName, input: HTMLInputElement, event: InputEvent) {
    const deleting = event.inputType?.startsWith('delete') ?? false;
    if (field === 'number') reformat(input, formatCardNumber(input.value.replace(/\D/g, '')));
    if (field === 'expiry') input.value = formatExpiry(input.value, deleting);
    if (field === 'cvc') input.value = input.value.replace(/\D/g, '').slice(0, this.state.cvcSize);
    if (field === 'postalCode') input.value = input.value.replace(/[^\p{L}\p{N} -]/gu, '');
    this.forcedInvalid.delete(field);
    if (field === 'number') {
      const card = valid.number(input.value.replace(/\D/g, '')).card;
      this.state.brand = card?.type ?? null;
      this.state.cvcSize = card?.code.size ?? 3;
      // A brand change can make a typed CVC too long or too short.
      const cvc = this.inputs.get('cvc');
      if (cvc && cvc.value.length > this.state.cvcSize) cvc.value = cvc.value.slice(0, this.state.cvcSize);
      this.state.fields.cvc = { ...this.state.fields.cvc, ...this.validate('cvc') };
    }
    this.update(field, this.validate(field), 'input');
  }

  private validate(field: CardFieldName): Pick<CardFieldStateish, 'isEmpty' | 'isValid' | 'isPotentiallyValid'> {
    if (field === 'postalCode' && this.givenPostalCode !== null) return { isEmpty: false, isValid: true, isPotentiallyValid: true };
    const value = this.value(field);
    const isEmpty = value.trim() === '';
    let result: { isValid: boolean; isPotentiallyValid: boolean };
    if (field === 'number') result = valid.number(value.replace(/\D/g, ''));
    else if (field === 'expiry') result = valid.expirationDate(value, MAX_EXPIRY_YEARS);
    else if (field === 'cvc') result = valid.cvv(value, this.state.cvcSize);
    else result = valid.postalCode(value, { minLength: 3 });
    if (this.forcedInvalid.has(field)) result = { isValid: false, isPotentiallyValid: false };
    return { isEmpty, isValid: result.isValid, isPotentiallyValid: result.isPotentiallyValid };
  }

  private update(field: CardFieldName, changes: Partial<CardFieldStateish>, type: CardFieldEvent['type']) {
    this.state = {
      ...this.state,
      fields: { ...this.state.fields, [field]: { ...this.state.fields[field], ...changes } },
    };
    this.emit({ field, type });
  }
}

type CardFieldStateish = CardFormState['fields'][CardFieldName];
