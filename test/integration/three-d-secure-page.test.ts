import { Window } from 'happy-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticateInTestMode } from '../../web/checkout/three-d-secure/test-challenge';
import { testDatabases } from '../support/databases';
import { createSession, merchantCall, testCard, tokenize, useIntegration } from '../support/integration';

/**
 * The checkout page's 3-D Secure step in test mode (web/checkout/three-d-secure/test-challenge.ts),
 * its requests answered by the real server: the test challenge is shown and answered as a shopper
 * would, through its buttons.
 */
describe.each(testDatabases)('the page verifies cards with the test processor ($name)', (database) => {
  const ctx = useIntegration(database);

  // A browser document for the page's dialog (the server runs in Node beside it).
  let document: Document;
  beforeEach(() => {
    document = new Window({ url: 'http://localhost/' }).document as unknown as Document;
    vi.stubGlobal('document', document);
  });
  afterEach(() => vi.unstubAllGlobals());

  /** The page's fetch, answered by the server under test. */
  function serve() {
    vi.stubGlobal('fetch', async (url: string, init: { method: string; body?: string }) => {
      const res = await ctx.h.app.inject({ method: init.method as 'POST', url, payload: init.body ? JSON.parse(init.body) : undefined });
      return new Response(res.body, { status: res.statusCode, headers: { 'content-type': 'application/json' } });
    });
  }

  async function attempt(number: string, answer?: (dialog: HTMLDialogElement) => void, locale = 'en') {
    await merchantCall(ctx.h, ctx.key, 'POST', '/v1/flags/three_d_secure', { value: 'always' });
    const session = await createSession(ctx);
    const nonce = await tokenize(ctx.h, session.id, { ...testCard, number });
    serve();
    const result = authenticateInTestMode({ id: session.id, locale }, nonce);
    if (answer) {
      await vi.waitFor(() => expect(document.querySelector('dialog')).not.toBeNull());
      answer(document.querySelector('dialog')!);
    }
    return result;
  }

  const click = (name: string) => (dialog: HTMLDialogElement) => {
    expect(dialog.querySelector('h2')!.textContent).toBe('Test 3-D Secure check: no bank is asked');
    [...dialog.querySelectorAll('button')].find((b) => b.textContent === name)!.click();
  };

  it('frictionless: no dialog, a verified nonce', async () => {
    const result = await attempt('4000000000002701');
    expect(result).toMatchObject({ ok: true });
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('challenge passed through its button: a verified nonce; the dialog is gone', async () => {
    expect(await attempt('4000000000002503', click('Pass the check'))).toMatchObject({ ok: true });
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('challenge failed: the bank could not confirm it', async () => {
    expect(await attempt('4000000000002503', click('Fail the check'))).toEqual({ ok: false, key: 'threeDSecure.failed' });
  });

  it('challenge closed without an answer: canceled', async () => {
    expect(await attempt('4000000000002503', (dialog) => dialog.close())).toEqual({ ok: false, key: 'threeDSecure.canceled' });
  });

  it('failed authentication: no dialog, failed; unavailable: the nonce goes on to the sale', async () => {
    expect(await attempt('4000000000002925')).toEqual({ ok: false, key: 'threeDSecure.failed' });
    expect(await attempt('4000000000002313')).toMatchObject({ ok: true });
  });

  it('in Arabic the dialog is translated and right to left', async () => {
    const result = await attempt(
      '4000000000002503',
      (dialog) => {
        expect(dialog.dir).toBe('rtl');
        expect(dialog.querySelector('h2')!.textContent).toBe('فحص 3-D Secure تجريبي: لا يُسأل أي بنك');
        [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'اجتياز الفحص')!.click();
      },
      'ar',
    );
    expect(result).toMatchObject({ ok: true });
  });
});
