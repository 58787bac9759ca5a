// @vitest-environment happy-dom
import valid from 'card-validator';
import { act, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { HostedFieldsEvent, HostedFieldsInstance } from '../braintree/braintree-components';
import { loadMessages, translator, type Translate } from '../i18n';
import { CardFields } from './CardFields';
import type { CardFormEngine } from './engine';
import { fixFieldsMessage, useFieldsToFix, wrongFields, type FieldToFix } from './fields-to-fix';
import { HostedFieldsEngine } from './hosted-fields-engine';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Braintree Hosted Fields as documented: every event carries every field's state. */
function fakeHostedFields() {
  const handlers = new Map<string, Array<(event: HostedFieldsEvent) => void>>();
  const values: Record<string, string> = { number: '', expirationDate: '', cvv: '', postalCode: '' };
  const focused = new Set<string>();
  const ariaInvalid = new Map<string, unknown>();
  const cards = () => {
    const card = valid.number(values.number).card;
    return card ? [{ type: card.type, code: { size: card.code.size } }] : [];
  };
  const state = (name: string) => {
    const v = values[name]!;
    const check =
      name === 'number'
        ? valid.number(v)
        : name === 'expirationDate'
          ? valid.expirationDate(v)
          : name === 'cvv'
            ? valid.cvv(v, cards()[0]?.code.size ?? 3)
            : valid.postalCode(v, { minLength: 3 });
    return { isEmpty: v === '', isValid: check.isValid, isPotentiallyValid: check.isPotentiallyValid, isFocused: focused.has(name) };
  };
  const all = () => ({ cards: cards(), fields: Object.fromEntries(Object.keys(values).map((name) => [name, state(name)])) });
  const emit = (type: string, emittedBy: string) => {
    for (const handler of handlers.get(type) ?? []) handler({ emittedBy, ...all() });
  };
  const instance: HostedFieldsInstance = {
    on: (event, handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
    tokenize: async () => {
      throw Object.assign(new Error('invalid'), { code: 'HOSTED_FIELDS_FIELDS_INVALID' });
    },
    focus: (field) => {
      focused.add(field);
      emit('focus', field);
    },
    setAttribute: ({ field, attribute, value }) => {
      if (attribute === 'aria-invalid') ariaInvalid.set(field, value);
    },
    removeAttribute: () => undefined,
    teardown: async () => undefined,
    getState: all,
  };
  return {
    engine: new HostedFieldsEngine(Promise.resolve(async () => instance)),
    ariaInvalid,
    /** The shopper types into a field (it keeps the focus). */
    type(field: string, value: string) {
      if (!focused.has(field)) instance.focus(field);
      values[field] = value;
      emit('validityChange', field);
    },
    blur(field: string) {
      focused.delete(field);
      emit('blur', field);
    },
  };
}

/** The payment form's part under test: the card form and the banner naming the fields Pay found wrong. */
function Form({ engine, t, pay }: { engine: CardFormEngine; t: Translate; pay: { current: () => void } }) {
  const { fieldsToFix, flag } = useFieldsToFix(engine, true);
  useEffect(() => {
    pay.current = () => {
      const wrong = wrongFields(true, engine.getState());
      flag(wrong);
      if (wrong[0] && wrong[0] !== 'email') engine.focus(wrong[0]);
    };
  });
  return (
    <>
      <div id="banner" role="alert">
        {fieldsToFix.length ? fixFieldsMessage(fieldsToFix, t) : ''}
      </div>
      <CardFields engine={engine} t={t} submitted={fieldsToFix.length > 0} flagged={fieldsToFix} />
    </>
  );
}

describe('the fields Pay finds wrong, with Hosted Fields', () => {
  it('each keeps its message while focused and until corrected; the banner names them and goes with the last', async () => {
    const t = translator(await loadMessages('en'));
    const hosted = fakeHostedFields();
    const container = document.createElement('div');
    document.body.appendChild(container);
    const root = createRoot(container);
    const pay: { current: () => void } = { current: () => undefined };
    await act(async () => root.render(<Form engine={hosted.engine} t={t} pay={pay} />));
    const text = (selector: string) => container.querySelector(selector)!.textContent;

    // An Amex with a three-digit security code: complete everywhere but the CVC.
    await act(async () => {
      for (const [field, value] of [
        ['number', '378282246310005'],
        ['expirationDate', '12/34'],
        ['cvv', '123'],
        ['postalCode', '94107'],
      ] as const) {
        hosted.type(field, value);
        hosted.blur(field);
      }
    });
    await act(async () => pay.current());
    expect(hosted.engine.getState().fields.cvc).toMatchObject({ isFocused: true, isPotentiallyValid: true });
    expect(text('#card-cvc-error')).toBe('The security code is 4 digits.');
    expect(hosted.ariaInvalid.get('cvv')).toBe(true);
    expect(text('#banner')).toBe('Please check: Security code.');

    await act(async () => hosted.type('cvv', '12'));
    expect(text('#card-cvc-error')).toBe('The security code is 4 digits.');
    await act(async () => hosted.type('cvv', '1234'));
    expect(text('#card-cvc-error')).toBe('');
    expect(hosted.ariaInvalid.get('cvv')).toBe(false);
    expect(text('#banner')).toBe('');
    await act(async () => root.unmount());
  });

  it("names the fields in the shopper's language, as a list", async () => {
    const t = translator(await loadMessages('de'));
    const fields: FieldToFix[] = ['email', 'number', 'cvc'];
    expect(fixFieldsMessage(fields, t)).toBe(`Bitte prüfen Sie: ${t('form.email')}, ${t('form.cardNumber')} und ${t('form.cvc')}.`);
  });
});
