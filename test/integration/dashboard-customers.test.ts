import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall } from '../support/dashboard';
import { ownerCall, useDashboardFixtures } from '../support/dashboard-fixtures';
import { expectError, merchantCall, payCall, rows, tokenize } from '../support/integration';

describe.each(testDatabases)("the dashboard's Customers page ($name)", (database) => {
  const fx = useDashboardFixtures(database);
  const url = (path: string) => `/dashboard/api/accounts/${fx.accountId}/test${path}`;
  const as = (role: keyof typeof fx.members, method: 'GET' | 'DELETE', path: string) => dashboardCall(fx.h, fx.members[role], method, url(path));

  /** Ada pays a session that saves her card: one customer, one payment, one saved method. */
  async function adaPays() {
    fx.h.clock.advance(1000);
    const ada = (await merchantCall(fx.h, fx.secretKey, 'POST', '/v1/customers', { email: 'ada.lovelace@buyer.example', name: 'Ada' })).json();
    const session = (
      await merchantCall(fx.h, fx.secretKey, 'POST', '/v1/checkout/sessions', {
        currency: 'usd',
        customer: ada.id,
        payment_method_options: { card: { save: 'on' } },
        line_items: [{ name: 'Customer mug', unit_amount: 2100, quantity: 1 }],
      })
    ).json();
    const card = { number: '5555 5555 5555 4444', exp_month: 7, exp_year: 2031, cvc: '321' };
    const paid = await payCall(fx.h, session.id, await tokenize(fx.h, session.id, card));
    expect(paid.statusCode, paid.body).toBe(200);
    const payment = (await ownerCall(fx, 'GET', `/test/payments?customer=${ada.id}`)).data[0];
    expect(payment).toMatchObject({ customer: ada.id, amount: 2100 });
    return { ada, payment };
  }

  it('finds a customer by email (any case), shows its payments and saved card as brand, last4 and expiry only, and the payment links back', async () => {
    const { ada, payment } = await adaPays();
    const found = await as('support', 'GET', '/customers?email=ADA.Lovelace@buyer.example');
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.map((c: { id: string }) => c.id)).toEqual([ada.id]);
    expect(found.json().data[0]).toMatchObject({ email: 'ada.lovelace@buyer.example', name: 'Ada' });

    const page = await as('viewer', 'GET', `/customers/${ada.id}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().email).toBe('a•••@buyer.example');
    expect(page.json().payment_methods).toHaveLength(1);
    // As the API lists it (one definition): what may be shown of the card, never its number.
    expect(page.json().payment_methods[0]).toEqual({
      id: expect.stringMatching(/^pm_/),
      object: 'payment_method',
      livemode: false,
      customer: ada.id,
      type: 'card',
      card: { brand: 'mastercard', last4: '4444', exp_month: 7, exp_year: 2031, fingerprint: expect.any(String) },
      processor: 'test',
      created: expect.any(Number),
    });
    const payments = await as('viewer', 'GET', `/payments?customer=${ada.id}`);
    expect(payments.json().data.map((p: { id: string }) => p.id)).toEqual([payment.id]);
    expect((await as('viewer', 'GET', `/payments/${payment.id}`)).json().customer).toBe(ada.id);
  });

  it('lists shoppers who paid with an email and are no customer as guests: one per address (any case), read-only, masked for a viewer', async () => {
    await adaPays();
    const guestPays = async (email: string, amount: number) => {
      fx.h.clock.advance(1000);
      const session = (
        await merchantCall(fx.h, fx.secretKey, 'POST', '/v1/checkout/sessions', {
          currency: 'usd',
          line_items: [{ name: 'Guest mug', unit_amount: amount, quantity: 1 }],
        })
      ).json();
      const card = { number: '4111 1111 1111 1111', exp_month: 7, exp_year: 2031, cvc: '321' };
      const paid = await payCall(fx.h, session.id, await tokenize(fx.h, session.id, card), email);
      expect(paid.statusCode, paid.body).toBe(200);
    };
    await guestPays('cy.guest@buyer.example', 1500);
    await guestPays('CY.Guest@buyer.example', 900);
    await guestPays('dee.guest@buyer.example', 700);
    const list = await as('support', 'GET', '/guest-customers');
    expect(list.statusCode, list.body).toBe(200);
    const guests = list.json().data as { email: string; payments: number; last_payment: number }[];
    // Ada is a customer, not a guest; Cy's two payments are one guest.
    expect(guests.map((g) => g.email.toLowerCase())).not.toContain('ada.lovelace@buyer.example');
    const mine = guests.filter((g) => g.email.toLowerCase().includes('.guest@'));
    expect(mine.map((g) => ({ email: g.email.toLowerCase(), payments: g.payments }))).toEqual([
      { email: 'dee.guest@buyer.example', payments: 1 },
      { email: 'cy.guest@buyer.example', payments: 2 },
    ]);
    expect(mine[0]).toMatchObject({ object: 'guest_customer', last_payment: expect.any(Number) });
    const one = (await as('owner', 'GET', '/guest-customers?email=CY.GUEST@buyer.example')).json();
    expect(one.data.map((g: { payments: number }) => g.payments)).toEqual([2]);
    const viewer = (await as('viewer', 'GET', '/guest-customers')).json();
    expect(JSON.stringify(viewer)).not.toContain('cy.guest');
    expect(viewer.data.map((g: { email: string }) => g.email)).toContain('d•••@buyer.example');
    expectError(await as('viewer', 'GET', '/guest-customers?email=cy.guest@buyer.example'), 403, 'insufficient_role', { param: 'email' });
    const first = (await as('owner', 'GET', '/guest-customers?limit=1')).json();
    expect(first).toMatchObject({ has_more: true, data: [{ email: 'dee.guest@buyer.example' }] });
  });

  it('masks emails for a viewer and refuses them a search by email; bad input is a 400', async () => {
    await adaPays();
    const list = await as('viewer', 'GET', '/customers');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((c: { email: string }) => c.email)).toContain('a•••@buyer.example');
    expect(JSON.stringify(list.json())).not.toContain('ada.lovelace');
    expectError(await as('viewer', 'GET', '/customers?email=ada.lovelace@buyer.example'), 403, 'insufficient_role', { param: 'email' });
    expectError(await as('owner', 'GET', '/customers?email='), 400, 'parameter_invalid', { param: 'email' });
    expectError(await as('owner', 'GET', '/customers?limit=0'), 400, 'parameter_invalid', { param: 'limit' });
    expectError(await as('owner', 'GET', '/payments?customer=pay_123'), 400, 'parameter_invalid', { param: 'customer' });
    expectError(await as('owner', 'GET', '/customers/cus_nope'), 404, 'resource_missing', { param: 'id' });
    expectError(await as('owner', 'DELETE', '/customers/cus_nope'), 404, 'resource_missing', { param: 'id' });
  });

  it('deletes a customer (owner or admin only): saved methods gone at the processor, the payment stays detached, the audit log names the member', async () => {
    const { ada, payment } = await adaPays();
    const saved = await rows(fx.db, 'SELECT processor_token FROM payment_methods WHERE customer_id = $1', [ada.id]);
    expect(saved).toHaveLength(1);

    expectError(await as('support', 'DELETE', `/customers/${ada.id}`), 403, 'insufficient_role');
    expect((await as('support', 'GET', `/customers/${ada.id}`)).statusCode).toBe(200);

    const deleted = await as('admin', 'DELETE', `/customers/${ada.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ id: ada.id, object: 'customer', deleted: true });

    expectError(await as('admin', 'GET', `/customers/${ada.id}`), 404, 'resource_missing', { param: 'id' });
    expect((await as('admin', 'GET', '/customers?email=ada.lovelace@buyer.example')).json().data.map((c: { id: string }) => c.id)).not.toContain(ada.id);
    expect(await rows(fx.db, 'SELECT id FROM payment_methods WHERE customer_id = $1', [ada.id])).toEqual([]);
    // The test processor's vault no longer holds the card.
    expect(await rows(fx.db, 'SELECT * FROM test_saved_cards WHERE token = $1', [saved[0]!.processor_token])).toEqual([]);
    const kept = await as('admin', 'GET', `/payments/${payment.id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ id: payment.id, customer: null, amount: 2100, status: 'succeeded' });

    const audit = (await ownerCall(fx, 'GET', '/audit-log')).data as Array<{ action: string; target: string; actor: unknown }>;
    const entry = audit.find((e) => e.action === 'customer.delete' && e.target === ada.id);
    expect(JSON.stringify(entry?.actor)).toContain(fx.members.admin.email);
  });
});
