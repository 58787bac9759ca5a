/**
 * The card form's contract. The page owns the layout, the labels, the errors and the Pay button; an
 * engine owns the four inputs inside the slots it is given and turns them into a nonce. The built-in
 * engine puts real inputs in the slots; a Braintree Hosted Fields engine puts its iframes there, so
 * both look and behave the same from the page's side.
 */
export type CardFieldName = 'number' | 'expiry' | 'cvc' | 'postalCode';

export const cardFieldNames: readonly CardFieldName[] = ['number', 'expiry', 'cvc', 'postalCode'];

export interface CardFieldState {
  isEmpty: boolean;
  /** Complete and correct. */
  isValid: boolean;
  /** Could still become valid with more typing: no error is shown while this holds and focus stays. */
  isPotentiallyValid: boolean;
  isFocused: boolean;
}

export interface CardFormState {
  fields: Record<CardFieldName, CardFieldState>;
  /** credit-card-type's name for the detected brand (`visa`, `american-express`…), or null. */
  brand: string | null;
  /** Digits the security code has for this brand (3, or 4 for Amex). */
  cvcSize: number;
}

/** Where an engine renders one field, and how the page has labelled and described it. */
export interface CardFieldSlot {
  container: HTMLElement;
  /** The id the page's `<label for>` points at. */
  inputId: string;
  /** Ids of the hint and error elements, for `aria-describedby`. */
  describedBy: string;
  placeholder: string;
  /** The accessible name, for engines whose inputs a `<label for>` cannot reach (iframes). */
  label: string;
}

export type CardFieldEvent = { field: CardFieldName; type: 'focus' | 'blur' | 'input' };

export type TokenizeOutcome =
  | { ok: true; nonce: string; brand: string | null; last4: string | null; bin?: string }
  | { ok: false; reason: 'invalid'; fields: CardFieldName[] }
  | { ok: false; reason: 'error'; code: string; declineCode?: string; param?: string };

export interface CardFormEngine {
  readonly kind: 'builtin' | 'hosted-fields';
  mount(slots: Record<CardFieldName, CardFieldSlot>): Promise<void>;
  /** Called on every focus, blur and keystroke with the whole form's state. */
  subscribe(listener: (state: CardFormState, event: CardFieldEvent) => void): () => void;
  getState(): CardFormState;
  /** Locks the fields while a payment is processing. */
  setDisabled(disabled: boolean): void;
  /** Marks a field invalid from outside (a decline for a wrong CVC, say). */
  setInvalid(field: CardFieldName, invalid: boolean): void;
  /** Says to assistive technology whether the field is in error (`aria-invalid`), as the page shows it. */
  setAriaInvalid(field: CardFieldName, invalid: boolean): void;
  /**
   * The card's postal code given by the page (the billing address it collects), so it is not asked
   * twice: the postal code field counts as complete and the card is tokenized with this code. null:
   * the shopper types it in the card form.
   */
  setPostalCode(postalCode: string | null): void;
  focus(field: CardFieldName): void;
  tokenize(): Promise<TokenizeOutcome>;
  teardown(): void;
}

export function emptyCardFormState(): CardFormState {
  const field = (): CardFieldState => ({ isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false });
  return {
    fields: { number: field(), expiry: field(), cvc: field(), postalCode: field() },
    brand: null,
    cvcSize: 3,
  };
}

/**
 * What every engine shares: the form's state and the listeners told of each change. An engine
 * updates `state` and calls `emit`; the page reads through `subscribe` and `getState`.
 */
export abstract class CardEngineState {
  protected state: CardFormState = emptyCardFormState();
  private readonly listeners = new Set<(state: CardFormState, event: CardFieldEvent) => void>();

  subscribe(listener: (state: CardFormState, event: CardFieldEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getState(): CardFormState {
    return this.state;
  }

  protected emit(event: CardFieldEvent): void {
    for (const listener of this.listeners) listener(this.state, event);
  }

  protected forgetListeners(): void {
    this.listeners.clear();
  }
}
