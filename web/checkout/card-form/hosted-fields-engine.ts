import type { HostedFieldsCreate, HostedFieldsEvent, HostedFieldsInstance } from '../braintree/braintree-components';
import { frameStyles, hostedFieldsOption, hostedNames, ourNames } from '../braintree/hosted-fields-setup';
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

/** A shopper waits at most this long for the card frames before the page says they did not load. */
export const HOSTED_FIELDS_TIMEOUT_MS = 12_000;

/**
 * The card form's second engine: Braintree Hosted Fields. The card number, expiry and CVC are typed
 * into Braintree's iframes, so they never touch this page or our server; we get a nonce.
 */
export class HostedFieldsEngine extends CardEngineState implements CardFormEngine {
  readonly kind = 'hosted-fields' as const;
  private instance: HostedFieldsInstance | null = null;
  private forcedInvalid = new Set<CardFieldName>();
  private disabled = false;
  private givenPostalCode: string | null = null;

  constructor(
    private readonly create: Promise<HostedFieldsCreate>,
    private readonly timeoutMs = HOSTED_FIELDS_TIMEOUT_MS,
  ) {
    super();
  }

  async mount(slots: Record<CardFieldName, CardFieldSlot>): Promise<void> {
    // The frame's own input gets the page's label; the container keeps the id the <label for> names.
    for (const field of cardFieldNames) slots[field].container.id = slots[field].inputId;
    const fields = hostedFieldsOption(slots);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Hosted Fields did not load in time')), this.timeoutMs);
    });
    try {
      const create = await Promise.race([this.create, timeout]);
      this.instance = await Promise.race([create({ fields, styles: frameStyles }), timeout]);
    } finally {
      clearTimeout(timer);
    }
    for (const type of ['focus', 'blur', 'validityChange', 'empty', 'notEmpty', 'cardTypeChange', 'inputSubmitRequest'] as const) {
      this.instance.on(type, (event) => this.onEvent(type, event));
    }
    this.catchUp(this.instance.getState());
    if (this.disabled) this.setDisabled(true);
  }

  /**
   * Fields started before this engine (main.tsx starts them before React) may already hold what the
   * shopper typed: take their state as it is, and tell the page, a field already left as a blur.
   */
  private catchUp(current: Pick<HostedFieldsEvent, 'fields' | 'cards'>) {
    this.onEvent('catchUp', { ...current, emittedBy: '' });
    for (const field of cardFieldNames) {
      const state = this.state.fields[field];
      if (!state.isEmpty || state.isFocused) this.emit({ field, type: state.isFocused ? 'focus' : state.isEmpty ? 'input' : 'blur' });
    }
  }

  setDisabled(disabled: boolean): void {
    this.disabled = disabled;
    for (const field of cardFieldNames) {
      if (disabled) this.instance?.setAttribute({ field: hostedNames[field], attribute: 'disabled', value: true });
      else this.instance?.removeAttribute({ field: hostedNames[field], attribute: 'disabled' });
    }
  }

  setInvalid(field: CardFieldName, invalid: boolean): void {
    if (invalid) this.forcedInvalid.add(field);
    else this.forcedInvalid.delete(field);
    this.instance?.setAttribute({ field: hostedNames[field], attribute: 'aria-invalid', value: invalid });
    this.update(field, this.forced(field, this.state.fields[field]), 'blur');
  }

  setAriaInvalid(field: CardFieldName, invalid: boolean): void {
    this.instance?.setAttribute({ field: hostedNames[field], attribute: 'aria-invalid', value: invalid });
  }

  setPostalCode(postalCode: string | null): void {
    this.givenPostalCode = postalCode;
    const reported = this.instance?.getState().fields[hostedNames.postalCode];
    this.update('postalCode', this.forced('postalCode', reported ?? { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false }), 'input');
  }

  focus(field: CardFieldName): void {
    this.instance?.focus(hostedNames[field]);
  }

  teardown(): void {
    const instance = this.instance;
    this.instance = null;
    this.forgetListeners();
    void instance?.teardown().catch(() => undefined);
  }

  async tokenize(): Promise<TokenizeOutcome> {
    const invalid = cardFieldNames.filter((field) => !this.state.fields[field].isValid);
    if (invalid.length) {
      for (const field of invalid) this.emit({ field, type: 'blur' });
      return { ok: false, reason: 'invalid', fields: invalid };
    }
    if (!this.instance) return { ok: false, reason: 'error', code: 'network' };
    try {
      // A postal code the page gives goes with the card; the (hidden) postal code frame is left out.
      const given = this.givenPostalCode;
      const payload = await (given === null
        ? this.instance.tokenize()
        : this.instance.tokenize({
            fieldsToTokenize: cardFieldNames.filter((field) => field !== 'postalCode').map((field) => hostedNames[field]),
            billingAddress: { postalCode: given.trim() },
          }));
      return {
        ok: true,
        nonce: payload.nonce,
        brand: payload.details.cardType?.toLowerCase() ?? null,
        last4: payload.details.lastFour ?? null,
        bin: payload.details.bin,
      };
    } catch (error) {
      const e = error as { code?: string; details?: { invalidFieldKeys?: string[] } };
      if (e.code === 'HOSTED_FIELDS_FIELDS_EMPTY' || e.code === 'HOSTED_FIELDS_FIELDS_INVALID') {
        const fields = (e.details?.invalidFieldKeys ?? Object.values(hostedNames)).map((key) => ourNames[key]).filter((f): f is CardFieldName => Boolean(f));
        return { ok: false, reason: 'invalid', fields: fields.length ? fields : [...cardFieldNames] };
      }
      return { ok: false, reason: 'error', code: e.code === 'HOSTED_FIELDS_TOKENIZATION_NETWORK_ERROR' ? 'network' : 'processor_unavailable' };
    }
  }

  private onEvent(type: string, event: HostedFieldsEvent) {
    const field = ourNames[event.emittedBy];
    const card = event.cards?.length === 1 ? event.cards[0] : undefined;
    this.state = {
      ...this.state,
      brand: card?.type ?? null,
      cvcSize: card?.code?.size ?? 3,
      fields: Object.fromEntries(
        cardFieldNames.map((name) => {
          const reported = event.fields?.[hostedNames[name]];
          const current = reported ? { ...reported } : this.state.fields[name];
          if (name === field && type === 'notEmpty') this.forcedInvalid.delete(name);
          return [name, this.forced(name, current)];
        }),
      ) as CardFormState['fields'],
    };
    if (!field) return;
    this.emit({ field, type: type === 'focus' ? 'focus' : type === 'blur' ? 'blur' : 'input' });
  }

  private forced(field: CardFieldName, state: CardFormState['fields'][CardFieldName]) {
    if (field === 'postalCode' && this.givenPostalCode !== null) return { ...state, isEmpty: false, isValid: true, isPotentiallyValid: true };
    return this.forcedInvalid.has(field) ? { ...state, isValid: false, isPotentiallyValid: false } : state;
  }

  private update(field: CardFieldName, next: CardFormState['fields'][CardFieldName], type: CardFieldEvent['type']) {
    this.state = { ...this.state, fields: { ...this.state.fields, [field]: next } };
    this.emit({ field, type });
  }
}
