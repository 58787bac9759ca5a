// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { HostedFieldsInstance } from '../braintree/braintree-components';
import { inlineMessages, loadMessages, translator } from '../i18n';
import { BuiltinCardEngine } from './builtin-engine';
import { CardFields } from './CardFields';
import { HostedFieldsEngine } from './hosted-fields-engine';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

async function render(element: React.ReactElement) {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => root.render(element));
  return { container, unmount: () => act(() => root.unmount()) };
}

describe("the card form in the shopper's language", () => {
  it('gives Braintree Hosted Fields the localized labels and placeholders', async () => {
    const de = await loadMessages('de');
    const t = translator(inlineMessages(de));
    let options: { fields: Record<string, { placeholder?: string; internalLabel?: string }> } | undefined;
    const instance = {
      on: () => undefined,
      setAttribute: () => undefined,
      removeAttribute: () => undefined,
      focus: () => undefined,
      teardown: async () => undefined,
      tokenize: async () => {
        throw new Error('unused');
      },
    } as unknown as HostedFieldsInstance;
    const create = Promise.resolve(async (given: Record<string, unknown>) => {
      options = given as typeof options;
      return instance;
    });
    const view = await render(<CardFields engine={new HostedFieldsEngine(create)} t={t} submitted={false} />);
    expect(options!.fields.number).toMatchObject({ internalLabel: t('form.cardNumber'), placeholder: '1234 1234 1234 1234' });
    expect(options!.fields.expirationDate).toMatchObject({ internalLabel: t('form.expiry'), placeholder: t('form.expiryPlaceholder') });
    expect(options!.fields.cvv).toMatchObject({ internalLabel: t('form.cvc') });
    expect(options!.fields.postalCode).toMatchObject({ internalLabel: t('form.postalCode') });
    expect(t('form.cardNumber')).not.toBe('Card number'); // German, not English
    await view.unmount();
  });

  it('keeps card digits left to right on a right-to-left page', async () => {
    const t = translator(await loadMessages('ar'));
    const view = await render(<CardFields engine={new BuiltinCardEngine(async () => ({ nonce: 'n', brand: null, last4: null }))} t={t} submitted={false} />);
    for (const id of ['card-number', 'card-expiry', 'card-cvc', 'card-postalCode']) {
      const input = view.container.querySelector<HTMLInputElement>(`#${id}`)!;
      expect(input.dir, id).toBe('ltr');
      expect(input.closest('.field-box')!.getAttribute('dir'), id).toBe('ltr');
    }
    expect(view.container.querySelector('label[for="card-number"]')!.textContent).toBe(t('form.cardNumber'));
    await view.unmount();
  });
});
