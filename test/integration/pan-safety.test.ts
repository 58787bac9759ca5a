import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { createSession, createSessionOf, dumpDatabase, expectError, merchantCall, payCall, tokenizeCall, useIntegration } from '../support/integration';

const PAN = '4111111111111111';
const CVC = '737';

/** Every way the number could have been written down. */
const panForms = [PAN, '4111 1111 1111 1111', '4111-1111-1111-1111', '411111111111'];

describe.each(testDatabases)('no card number or CVC is stored or logged ($name)', (database) => {
  const ctx = useIntegration(database);

  function expectNoPan(text: string, where: string) {
    for (const form of panForms) expect(text.includes(form), `${where} contains "${form}"`).toBe(false);
  }

  it('a full tokenize + pay leaves no PAN or CVC in any table or in the log', async () => {
    const session = await createSession(ctx);
    const token = await tokenizeCall(ctx.h, session.id, {
      number: '4111 1111 1111 1111',
      exp_month: 11,
      exp_year: 2033,
      cvc: CVC,
      postal_code: '94107',
    });
    expect(token.statusCode, token.body).toBe(200);
    expectNoPan(token.body, 'the tokenize answer');
    expect(token.body).not.toContain(CVC);

    const paid = await payCall(ctx.h, session.id, token.json().nonce);
    expect(paid.statusCode, paid.body).toBe(200);
    const paymentId = (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/checkout/sessions/${session.id}`)).json().payment;
    const payment = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/${paymentId}`);
    expectNoPan(payment.body, 'the payment answer');

    // A second card through the same path, typed without spaces.
    const other = await createSessionOf(ctx, 800);
    const token2 = await tokenizeCall(ctx.h, other.id, { number: PAN, exp_month: 1, exp_year: 2031, cvc: CVC });
    expect(token2.statusCode, token2.body).toBe(200);
    expect((await payCall(ctx.h, other.id, token2.json().nonce)).statusCode).toBe(200);

    const dump = await dumpDatabase(ctx.db);
    expect(Object.keys(dump)).toEqual(expect.arrayContaining(['payments', 'test_card_nonces', 'events', 'checkout_sessions']));
    expect(dump.test_card_nonces).toHaveLength(2);
    for (const [table, lines] of Object.entries(dump)) {
      for (const line of lines) {
        expectNoPan(line, `table ${table}`);
        // No field named cvc/cvv anywhere, in any nesting, and never the CVC under any name like it.
        expect(line, `table ${table}`).not.toMatch(/"(cvc|cvv|cvn|card_?code|security_?code)"/i);
        expect(line, `table ${table}`).not.toMatch(/"number"\s*:/);
      }
    }

    expect(ctx.h.logLines.length).toBeGreaterThan(0); // the logger is on (trace level)
    const log = ctx.h.logLines.join('\n');
    expectNoPan(log, 'the server log');
    expect(log).not.toMatch(/"cvc"/i);
  });

  it.each([
    ['an invalid expiry month', { number: PAN, exp_month: 13, exp_year: 2034, cvc: '123' }, 'exp_month'],
    ['a wrong-length CVC', { number: PAN, exp_month: 12, exp_year: 2034, cvc: '12' }, 'cvc'],
    ['a past expiry', { number: PAN, exp_month: 1, exp_year: 2001, cvc: '123' }, 'exp'],
    ['a Luhn-invalid number', { number: '4111111111111112', exp_month: 12, exp_year: 2034, cvc: '123' }, 'number'],
    ['an unknown field', { number: PAN, exp_month: 12, exp_year: 2034, cvc: '123', name: PAN }, 'name'],
    ['a number sent as a JSON number', { number: 4111111111111111, exp_month: 12, exp_year: 2034, cvc: '123' }, 'number'],
  ])('refusing %s does not echo the number', async (_label, card, param) => {
    const session = await createSession(ctx);
    const res = await tokenizeCall(ctx.h, session.id, card);
    expect(res.statusCode, res.body).toBe(400);
    const error = expectError(res, 400, res.json().error.code, { param });
    expect(['parameter_invalid', 'parameter_unknown', 'parameter_missing']).toContain(error.code);
    expectNoPan(res.body, 'the error answer');
    expect(res.body).not.toContain('4111111111111112');
    expectNoPan(ctx.h.logLines.join('\n'), 'the server log');
    expect(ctx.h.logLines.join('\n')).not.toContain('4111111111111112');
  });
});
