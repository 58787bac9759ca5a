import { base, request, type TestThreeDSecureAnswer } from '../api';
import { loadMessages, translator, type MessageKey, type Translate } from '../i18n';
import { testDialog } from '../test-dialog';

/**
 * 3-D Secure in test mode, through the test processor (docs/test-processor.md): verify the card
 * nonce, and where the card asks for a challenge, show a test challenge the shopper passes or fails
 * (a modal dialog over the page, as Cardinal's is with Braintree). Loaded only when a payment is to
 * be verified.
 */
export async function authenticateInTestMode(
  session: { id: string; locale: string | null },
  nonce: string,
): Promise<{ ok: true; nonce: string } | { ok: false; key: MessageKey }> {
  const sessionId = session.id;
  const t = translator(await loadMessages(session.locale));
  let answer = await request<TestThreeDSecureAnswer>(`${base(sessionId)}/three-d-secure`, { body: { nonce } });
  if (answer.challenge) {
    const passed = await testChallenge(t);
    if (passed === null) return { ok: false, key: 'threeDSecure.canceled' };
    answer = await request<TestThreeDSecureAnswer>(`${base(sessionId)}/three-d-secure/challenge`, { body: { nonce: answer.nonce, passed } });
  }
  // As with braintree-web: a failed authentication where a liability shift was possible stops here.
  if (answer.liability_shift_possible && !answer.liability_shifted) return { ok: false, key: 'threeDSecure.failed' };
  return { ok: true, nonce: answer.nonce };
}

/** The test challenge: true when passed, false when failed, null when closed (Escape). */
function testChallenge(t: Translate): Promise<boolean | null> {
  return testDialog(t, t('threeDSecure.test'), [
    { label: t('threeDSecure.testPass'), value: true },
    { label: t('threeDSecure.testFail'), value: false },
  ]);
}
