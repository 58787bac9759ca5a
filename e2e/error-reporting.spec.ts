import { expect, test, type Page } from '@playwright/test';
import { createSession, fillCheckout, payButton } from './support';

interface Envelope {
  project: string;
  receivedAt: number;
  raw: string;
  items: Array<{ type: string; payload: any }>;
}

/** What the Sentry stand-in has received so far (see test/support/sentry-receiver.ts). */
async function envelopes(): Promise<Envelope[]> {
  return (await fetch(`${process.env.E2E_SENTRY_URL}/__envelopes`)).json();
}

async function waitForItem(predicate: (item: { type: string; payload: any }, envelope: Envelope) => boolean) {
  let found: { type: string; payload: any } | undefined;
  await expect
    .poll(
      async () => {
        for (const envelope of await envelopes()) {
          found = envelope.items.find((item) => predicate(item, envelope));
          if (found) return true;
        }
        return false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

const browserSince = (since: number) => (item: { type: string }, envelope: Envelope) =>
  envelope.project === '2' && envelope.receivedAt >= since && item.type === 'session';

/** The page loads the Sentry SDK once idle; its first `session` item says it is running. */
async function openWithReporting(page: Page, url: string) {
  const since = Date.now();
  await page.goto(url);
  await waitForItem(browserSince(since));
}

test.describe('error reporting from the checkout page', () => {
  test('an error thrown on the page arrives as an event with the release and the session tag; a session is sent', async ({ page, request }) => {
    const session = await createSession(request);
    await openWithReporting(page, session.url);
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error('e2e checkout failure');
      }, 0),
    );

    const event = await waitForItem(
      (item, envelope) => envelope.project === '2' && item.type === 'event' && JSON.stringify(item.payload).includes('e2e checkout failure'),
    );
    expect(event.payload.release).toBe('tillpoint@0.1.0');
    expect(event.payload.environment).toBe('e2e');
    expect(event.payload.tags).toMatchObject({ checkout_session: session.id, app: 'checkout' });
  });

  test('after paying with 4111 1111 1111 1111 no envelope holds the card number, the CVC, the email or the nonce', async ({ page, request }) => {
    const email = `sentry-${Date.now()}@example.com`;
    const session = await createSession(request);
    await openWithReporting(page, session.url);
    await fillCheckout(page, { email, cvc: '987' });

    // A careless bug that puts what the shopper typed into an error message.
    await page.evaluate(() => {
      const number = (document.getElementById('card-number') as HTMLInputElement | null)?.value;
      const typedEmail = (document.getElementById('email') as HTMLInputElement).value;
      setTimeout(() => {
        throw new Error(`leak card=${number} email=${typedEmail} cvc=987`);
      }, 0);
    });
    const leak = await waitForItem(
      (item, envelope) => envelope.project === '2' && item.type === 'event' && JSON.stringify(item.payload).includes('leak card='),
    );
    expect(JSON.stringify(leak.payload)).toContain('[email]');

    await payButton(page).click();
    await page.waitForURL(`**/c/${session.id}/done`);
    // The receipt page starts its own reporting session; let everything in flight arrive.
    await waitForItem((item, envelope) => envelope.project === '2' && item.type === 'session' && envelope.receivedAt > leak.payload.timestamp * 1000);

    const all = (await envelopes()).map((e) => e.raw).join('\n');
    expect(all).not.toContain('4111 1111 1111 1111');
    expect(all).not.toContain('4111111111111111');
    expect(all).not.toContain(email);
    expect(all).not.toMatch(/tokencc_/);
    expect(all).not.toMatch(/cvc\W{0,6}987/i);
  });
});
