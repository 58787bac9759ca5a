import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createSession, fillCheckout, payButton } from './support';

/** Every regular file under a folder, recursively (not the running server's admin socket). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const stat = statSync(full);
    return stat.isDirectory() ? filesUnder(full) : stat.isFile() ? [full] : [];
  });
}

test('the card number and CVC reach neither the database files nor the server log', async ({ page, request }) => {
  const session = await createSession(request);
  await page.goto(session.url);
  await fillCheckout(page, { number: '4111 1111 1111 1111', cvc: '737' });
  await payButton(page).click();
  await page.waitForURL(`**/c/${session.id}/done`);

  const forbidden = ['4111111111111111', '4111 1111 1111 1111', '"cvc":"737"', 'cvc=737'];
  const dataDir = process.env.E2E_DATA_DIR!;
  const files = filesUnder(dataDir);
  // The embedded database keeps its tables and write-ahead log as files here: a byte scan is a full dump.
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) {
    const bytes = readFileSync(file).toString('latin1');
    for (const needle of forbidden) expect(bytes.includes(needle), `${needle} found in ${file}`).toBe(false);
  }
  const log = readFileSync(process.env.E2E_SERVER_LOG!, 'utf8');
  expect(log).toContain(`/api/checkout/sessions/${session.id}/card-tokens`); // the log did see the request
  for (const needle of forbidden) expect(log.includes(needle), `${needle} found in the server log`).toBe(false);
});
