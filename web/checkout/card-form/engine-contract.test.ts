// @vitest-environment happy-dom
import valid from 'card-validator';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostedFieldsEvent, HostedFieldsInstance } from '../braintree/braintree-components';
import { BuiltinCardEngine } from './builtin-engine';
import { cardFieldNames, type CardFieldEvent, type CardFieldName, type CardFieldSlot, type CardFormEngine } from './engine';
import { HostedFieldsEngine } from './hosted-fields-engine';

/**
 * The card-form engine contract, one suite run against each engine: what the page relies on,
 * whichever engine is behind the card form.
 */
interface Driver {
  engine: CardFormEngine;
  /** The shopper types `value` into `field` (focus, type, blur). */
  type(field: CardFieldName, value: string): void;
  focus(field: CardFieldName): void;
  blur(field: CardFieldName): void;
  isDisabled(field: CardFieldName): boolean;
  /** The nonce tokenize should return for a valid card. */
  expectedNonce: string | RegExp;
  /** The postal code the last tokenized card went with. */
  tokenizedPostalCode(): string | undefined;
}

function slots(): Record<CardFieldName, CardFieldSlot> {
  return Object.fromEntries(
    cardFieldNames.map((field) => {
      const container = document.createElement('div');
      document.body.appendChild(container);
      return [field, { container, inputId: `card-${field}`, describedBy: `card-${field}-error`, placeholder: '', label: field }];
    }),
  ) as unknown as Record<CardFieldName, CardFieldSlot>;
}

function builtinDriver(): Driver {
  let postalCode: string | undefined;
  const engine = new BuiltinCardEngine(async (card) => {
    postalCode = card.postal_code;
    return { nonce: `tokencc_${card.number.slice(-4)}`, brand: 'visa', last4: card.number.slice(-4) };
  });
  const input = (field: CardFieldName) => document.getElementById(`card-${field}`) as HTMLInputElement;
  return {
    engine,
    type(field, value) {
      const el = input(field);
      el.dispatchEvent(new FocusEvent('focus'));
      el.value = value;
      el.dispatchEvent(new InputEvent('input', { inputType: 'insertText' }));
      el.dispatchEvent(new FocusEvent('blur'));
    },
    focus: (field) => input(field)?.dispatchEvent(new FocusEvent('focus')),
    blur: (field) => input(field)?.dispatchEvent(new FocusEvent('blur')),
    isDisabled: (field) => input(field).disabled,
    expectedNonce: 'tokencc_1111',
    tokenizedPostalCode: () => postalCode,
  };
}

const hostedNames: Record<CardFieldName, string> = { number: 'number', expiry: 'expirationDate', cvc: 'cvv', postalCode: 'postalCode' };

/** Braintree's Hosted Fields as its documentation describes the instance: events with every field's state. */
function hostedDriver(): Driver {
  const handlers = new Map<string, Array<(event: HostedFieldsEvent) => void>>();
  const values = { number: '', expirationDate: '', cvv: '', postalCode: '' } as Record<string, string> & { number: string };
  const focused = new Set<string>();
  const disabled = new Set<string>();
  let tokenizedPostal: string | undefined;
  const cards = () => {
    const card = valid.number(values.number).card;
    return card ? [{ type: card.type, code: { size: card.code.size } }] : [];
  };
  const fieldState = (name: string) => {
    const v = values[name]!;
    const size = cards()[0]?.code.size ?? 3;
    const check =
      name === 'number'
        ? valid.number(v)
        : name === 'expirationDate'
          ? valid.expirationDate(v)
          : name === 'cvv'
            ? valid.cvv(v, size)
            : valid.postalCode(v, { minLength: 3 });
    return { isEmpty: v === '', isValid: check.isValid, isPotentiallyValid: check.isPotentiallyValid, isFocused: focused.has(name) };
  };
  const emit = (type: string, emittedBy: string) => {
    const event: HostedFieldsEvent = {
      emittedBy,
      cards: cards(),
      fields: Object.fromEntries(Object.keys(values).map((name) => [name, fieldState(name)])),
    };
    for (const handler of handlers.get(type) ?? []) handler(event);
  };
  const instance: HostedFieldsInstance = {
    on: (event, handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
    async tokenize(options) {
      const invalid = (options?.fieldsToTokenize ?? Object.keys(values)).filter((name) => !fieldState(name).isValid);
      tokenizedPostal = options?.fieldsToTokenize && !options.fieldsToTokenize.includes('postalCode') ? options.billingAddress?.postalCode : values.postalCode;
      if (invalid.length) throw Object.assign(new Error('invalid'), { code: 'HOSTED_FIELDS_FIELDS_INVALID', details: { invalidFieldKeys: invalid } });
      return { nonce: 'tokencc_hosted_1', details: { cardType: 'Visa', lastFour: values.number.slice(-4), bin: values.number.slice(0, 6) } };
    },
    focus: (field) => {
      focused.add(field);
      emit('focus', field);
    },
    setAttribute: ({ field, attribute }) => {
      if (attribute === 'disabled') disabled.add(field);
    },
    removeAttribute: ({ field, attribute }) => {
      if (attribute === 'disabled') disabled.delete(field);
    },
    teardown: async () => undefined,
    getState: () => ({ cards: cards(), fields: Object.fromEntries(Object.keys(values).map((name) => [name, fieldState(name)])) }),
  };
  const create = Promise.resolve(async (options: Record<string, unknown>) => {
    for (const field of Object.values(options.fields as Record<string, { container: HTMLElement }>)) {
      field.container.appendChild(document.createElement('span')); // the real instance puts its iframe here
    }
    return instance;
  });
  return {
    engine: new HostedFieldsEngine(create),
    type(field, value) {
      const name = hostedNames[field];
      instance.focus(name);
      const wasEmpty = values[name] === '';
      values[name] = value;
      if (wasEmpty && value) emit('notEmpty', name);
      if (name === 'number') emit('cardTypeChange', name);
      emit('validityChange', name);
      focused.delete(name);
      emit('blur', name);
    },
    focus: (field) => instance.focus(hostedNames[field]),
    blur(field) {
      focused.delete(hostedNames[field]);
      emit('blur', hostedNames[field]);
    },
    isDisabled: (field) => disabled.has(hostedNames[field]),
    expectedNonce: 'tokencc_hosted_1',
    tokenizedPostalCode: () => tokenizedPostal,
  };
}

describe.each([
  ['built-in engine', builtinDriver],
  ['Hosted Fields engine', hostedDriver],
] as const)('card-form engine contract: %s', (_name, makeDriver) => {
  let driver: Driver;
  let events: CardFieldEvent[];

  const mount = async () => {
    driver = makeDriver();
    events = [];
    const s = slots();
    driver.engine.subscribe((_state, event) => events.push(event));
    await driver.engine.mount(s);
    return s;
  };
  const typeValidCard = (number = '4111 1111 1111 1111') => {
    driver.type('number', number);
    driver.type('expiry', '12/34');
    driver.type('cvc', number.startsWith('3') ? '1234' : '123');
    driver.type('postalCode', '94107');
  };

  afterEach(() => {
    driver.engine.teardown();
    document.body.replaceChildren();
  });

  it('renders into every slot and starts empty, invalid and unfocused', async () => {
    const s = await mount();
    for (const field of cardFieldNames) expect(s[field].container.children.length).toBe(1);
    const state = driver.engine.getState();
    for (const field of cardFieldNames) expect(state.fields[field]).toMatchObject({ isEmpty: true, isValid: false, isFocused: false });
    expect(state.brand).toBeNull();
  });

  it('reports focus and blur with the field', async () => {
    await mount();
    driver.focus('cvc');
    expect(events.at(-1)).toEqual({ field: 'cvc', type: 'focus' });
    expect(driver.engine.getState().fields.cvc.isFocused).toBe(true);
    driver.blur('cvc');
    expect(events.at(-1)).toEqual({ field: 'cvc', type: 'blur' });
    expect(driver.engine.getState().fields.cvc.isFocused).toBe(false);
  });

  it('detects the brand and the security code length as the number is typed', async () => {
    await mount();
    driver.type('number', '4111 1111 1111 1111');
    expect(driver.engine.getState()).toMatchObject({ brand: 'visa', cvcSize: 3 });
    driver.type('number', '3782 822463 10005');
    expect(driver.engine.getState()).toMatchObject({ brand: 'american-express', cvcSize: 4 });
  });

  it('refuses to tokenize an incomplete form, naming every field to fix', async () => {
    await mount();
    driver.type('number', '4111 1111 1111 1111');
    const outcome = await driver.engine.tokenize();
    expect(outcome).toEqual({ ok: false, reason: 'invalid', fields: ['expiry', 'cvc', 'postalCode'] });
  });

  it('tokenizes a valid card into a nonce with brand and last4', async () => {
    await mount();
    typeValidCard();
    for (const field of cardFieldNames) expect(driver.engine.getState().fields[field].isValid, field).toBe(true);
    const outcome = await driver.engine.tokenize();
    expect(outcome).toMatchObject({ ok: true, nonce: driver.expectedNonce, last4: '1111' });
    expect((outcome as { brand: string }).brand).toBe('visa');
  });

  it('marks a field invalid from outside (a declined CVC) until the shopper edits it', async () => {
    await mount();
    typeValidCard();
    driver.engine.setInvalid('cvc', true);
    expect(driver.engine.getState().fields.cvc.isValid).toBe(false);
    expect(events.at(-1)?.field).toBe('cvc');
    expect(await driver.engine.tokenize()).toMatchObject({ ok: false, reason: 'invalid', fields: ['cvc'] });
  });

  it('takes the postal code from the page (the billing address): the field counts as complete, the card goes with that code', async () => {
    await mount();
    driver.type('number', '4111 1111 1111 1111');
    driver.type('expiry', '12/34');
    driver.type('cvc', '123');
    expect(await driver.engine.tokenize()).toMatchObject({ ok: false, reason: 'invalid', fields: ['postalCode'] });
    driver.engine.setPostalCode('95014');
    expect(driver.engine.getState().fields.postalCode).toMatchObject({ isValid: true, isEmpty: false });
    expect(await driver.engine.tokenize()).toMatchObject({ ok: true, nonce: driver.expectedNonce });
    expect(driver.tokenizedPostalCode()).toBe('95014');
    driver.engine.setPostalCode(null);
    expect(driver.engine.getState().fields.postalCode.isValid).toBe(false);
  });

  it('locks and unlocks every field while a payment is processing', async () => {
    await mount();
    driver.engine.setDisabled(true);
    for (const field of cardFieldNames) expect(driver.isDisabled(field), field).toBe(true);
    driver.engine.setDisabled(false);
    for (const field of cardFieldNames) expect(driver.isDisabled(field), field).toBe(false);
  });

  it('stops reporting after teardown', async () => {
    await mount();
    driver.engine.teardown();
    const before = events.length;
    driver.focus('number');
    expect(events.length).toBe(before);
  });
});

describe('Hosted Fields engine when the frames never load', () => {
  it('fails mount after its timeout instead of spinning forever', async () => {
    const engine = new HostedFieldsEngine(new Promise(() => undefined), 50);
    await expect(engine.mount(slots())).rejects.toThrow(/did not load in time/);
  });
});

describe('Hosted Fields engine adopting fields started before React (web/checkout/main.tsx)', () => {
  it('takes what the shopper typed before it listened, and tells the page a field already left', async () => {
    const driver = hostedDriver();
    // The page's first script started the fields; the shopper typed before React hydrated.
    driver.type('number', '4111 1111 1111 1111');
    const events: CardFieldEvent[] = [];
    driver.engine.subscribe((_state, event) => events.push(event));
    await driver.engine.mount(slots());
    expect(driver.engine.getState()).toMatchObject({ brand: 'visa', cvcSize: 3 });
    expect(driver.engine.getState().fields.number).toMatchObject({ isEmpty: false, isValid: true, isFocused: false });
    expect(driver.engine.getState().fields.expiry).toMatchObject({ isEmpty: true, isValid: false });
    expect(events).toEqual([{ field: 'number', type: 'blur' }]);
    driver.engine.teardown();
    document.body.replaceChildren();
  });
});
