// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmailFilter } from './EmailFilter';
import { DashboardIntl } from './i18n';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

function show(value: string, onApply: (email: string) => void) {
  act(() =>
    root!.render(
      <DashboardIntl>
        <EmailFilter id="f-email" value={value} onApply={onApply} />
      </DashboardIntl>,
    ),
  );
}

const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;

describe('the email filter of the payments and customers lists', () => {
  it('refuses a half-typed address with a reason, applies a whole one on submit, and clears what is applied', () => {
    const container = document.createElement('div');
    document.body.appendChild(container);
    root = createRoot(container);
    const onApply = vi.fn();
    show('', onApply);
    const input = container.querySelector<HTMLInputElement>('#f-email')!;
    const form = container.querySelector('form')!;
    const type = (text: string) =>
      act(() => {
        setValue.call(input, text);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
    const submit = () => act(() => form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true })));

    expect(container.querySelector('label[for="f-email"]')?.textContent).toBe('Customer email');
    expect(container.querySelector('button[type="button"]')).toBeNull();

    type('ada@');
    submit();
    expect(onApply).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(container.querySelector(`#${input.getAttribute('aria-describedby')}`)?.textContent).toBe('Enter a whole email address, such as ada@example.com.');

    type(' ada@example.com ');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    submit();
    expect(onApply).toHaveBeenLastCalledWith('ada@example.com');

    // Applied (the URL now holds it): a button clears it.
    show('ada@example.com', onApply);
    const clear = container.querySelector<HTMLButtonElement>('button[type="button"]')!;
    expect(clear.textContent).toBe('Clear');
    act(() => clear.click());
    expect(onApply).toHaveBeenLastCalledWith('');
    expect(input.value).toBe('');
  });
});
