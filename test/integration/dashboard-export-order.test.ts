import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { merchantCall, tokenize, useIntegration } from '../support/integration';

/** The CSV export carries what fulfilling an order needs: discount, shipping, tax, addresses, answers. */
describe.each(testDatabases)("the payments CSV has the order's fulfilment columns ($name)", (database) => {
  const ctx = useIntegration(database, { rateLimitPerSecond: { test: 10_000 } });

  it('discount, shipping and tax amounts, shipping name and address, billing address and the answers', async () => {
    const owner = await signUpOwner(ctx.h, 'Export Order Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret as string;
    const session = (
      await merchantCall(ctx.h, key, 'POST', '/v1/checkout/sessions', {
        currency: 'usd',
        line_items: [{ name: 'Kettle', unit_amount: 5000, quantity: 1 }],
        shipping_address_collection: { allowed_countries: ['US'] },
        billing_address_collection: 'required',
        shipping_options: [{ shipping_rate_data: { type: 'fixed_amount', display_name: 'Express', fixed_amount: { amount: 1500, currency: 'usd' } } }],
        custom_fields: [{ key: 'giftnote', label: { type: 'custom', custom: 'Gift note' }, type: 'text', optional: true }],
      })
    ).json();
    const addressed = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.id}/addresses`,
      payload: {
        shipping_details: { name: 'Ada Lovelace', address: { line1: '1 Infinite Loop', city: 'Cupertino', state: 'CA', postal_code: '95014', country: 'US' } },
        billing_address: { line1: '12 Analytical Row', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
      },
    });
    expect(addressed.statusCode, addressed.body).toBe(200);
    const nonce = await tokenize(ctx.h, session.id);
    const paid = await ctx.h.app.inject({
      method: 'POST',
      url: `/api/checkout/sessions/${session.id}/payments`,
      payload: { payment_method_type: 'card', nonce, email: 'ada@buyer.example', custom_fields: { giftnote: 'Happy birthday' } },
    });
    expect(paid.statusCode, paid.body).toBe(200);

    const csv = await dashboardCall(ctx.h, owner, 'GET', `${base}/payments/export.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, row] = csv.body.split('\r\n');
    const cells = Object.fromEntries(header!.split(',').map((name, i) => [name, row!.split(',')[i]]));
    expect(cells).toMatchObject({
      amount: '65.00',
      amount_discount: '0.00',
      amount_shipping: '15.00',
      amount_tax: '0.00',
      shipping_name: 'Ada Lovelace',
      shipping_line1: '1 Infinite Loop',
      shipping_city: 'Cupertino',
      shipping_state: 'CA',
      shipping_postal_code: '95014',
      shipping_country: 'US',
      billing_line1: '12 Analytical Row',
      billing_country: 'US',
      custom_fields: 'giftnote: Happy birthday',
    });
  });
});
