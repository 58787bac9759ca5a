import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { dashboardCall, signUpOwner } from '../support/dashboard';
import { countRows, expectError, merchantCall, useIntegration } from '../support/integration';

const options = {
  allow_promotion_codes: true,
  billing_address_collection: 'required',
  shipping_address_collection: { allowed_countries: ['de', 'FR', 'JP'] },
  shipping_options: [
    {
      shipping_rate_data: {
        type: 'fixed_amount',
        display_name: 'Parcel',
        fixed_amount: { amount: 490, currency: 'eur' },
        delivery_estimate: { minimum: { unit: 'business_day', value: 2 }, maximum: { unit: 'business_day', value: 4 } },
      },
    },
    { shipping_rate_data: { display_name: 'Express', fixed_amount: { amount: 1290, currency: 'eur' } } },
  ],
  custom_fields: [
    { key: 'giftmessage', label: { type: 'custom', custom: 'Gift message' }, type: 'text', optional: true, text: { maximum_length: 120 } },
    { key: 'vat', label: { type: 'custom', custom: 'VAT number' }, type: 'text' },
    {
      key: 'grind',
      label: { type: 'custom', custom: 'Grind' },
      type: 'dropdown',
      dropdown: {
        options: [
          { label: 'Whole bean', value: 'whole' },
          { label: 'Filter', value: 'filter' },
        ],
      },
    },
  ],
};

describe.each(testDatabases)('payment link shopper options ($name)', (database) => {
  const ctx = useIntegration(database);
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, ctx.key, method, url, body);

  async function open(url: string) {
    const opened = await ctx.h.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(opened.statusCode).toBe(303);
    const id = String(opened.headers.location).slice('/c/'.length);
    return (await call('GET', `/v1/checkout/sessions/${id}`)).json();
  }

  it('a link made with every option keeps them, and each session it opens carries them', async () => {
    const product = (await call('POST', '/v1/products', { name: 'Beans', default_price_data: { currency: 'eur', unit_amount: 1450 } })).json();
    const res = await call('POST', '/v1/payment_links', {
      line_items: [
        { price: product.default_price.id, quantity: 2, adjustable_quantity: { enabled: true, minimum: 1, maximum: 6 } },
        { name: 'Filters', unit_amount: 600, quantity: 1 },
      ],
      ...options,
    });
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json();
    expect(link).toMatchObject({
      allow_promotion_codes: true,
      billing_address_collection: 'required',
      shipping_address_collection: { allowed_countries: ['DE', 'FR', 'JP'] },
      line_items: [{ name: 'Beans', quantity: 2, adjustable_quantity: { enabled: true, minimum: 1, maximum: 6 } }, { name: 'Filters' }],
      shipping_options: [
        {
          shipping_rate_data: {
            display_name: 'Parcel',
            fixed_amount: { amount: 490, currency: 'eur' },
            delivery_estimate: { minimum: { unit: 'business_day', value: 2 } },
          },
        },
        { shipping_rate_data: { display_name: 'Express', fixed_amount: { amount: 1290, currency: 'eur' }, delivery_estimate: null } },
      ],
    });
    expect(link.line_items[1].adjustable_quantity).toBeUndefined();
    expect(link.custom_fields.map((f: { key: string; optional: boolean }) => [f.key, f.optional])).toEqual([
      ['giftmessage', true],
      ['vat', false],
      ['grind', false],
    ]);
    expect((await call('GET', `/v1/payment_links/${link.id}`)).json()).toEqual(link);
    expect((await call('GET', '/v1/payment_links')).json().data[0]).toEqual(link);

    const first = await open(link.url);
    const second = await open(link.url);
    for (const session of [first, second]) {
      expect(session).toMatchObject({
        payment_link: link.id,
        allow_promotion_codes: true,
        billing_address_collection: 'required',
        shipping_address_collection: { allowed_countries: ['DE', 'FR', 'JP'] },
        line_items: [
          { name: 'Beans', quantity: 2, adjustable_quantity: { enabled: true, minimum: 1, maximum: 6 } },
          { name: 'Filters', quantity: 1 },
        ],
        // The first shipping choice is chosen until the shopper picks another.
        total_details: { amount_shipping: 490 },
        amount_total: 2900 + 600 + 490,
      });
      expect(
        session.shipping_options.map((o: { shipping_rate: { display_name: string }; shipping_amount: number }) => [
          o.shipping_rate.display_name,
          o.shipping_amount,
        ]),
      ).toEqual([
        ['Parcel', 490],
        ['Express', 1290],
      ]);
      expect(session.custom_fields).toEqual(link.custom_fields);
    }
    // Each session has its own shipping rate ids.
    expect(first.shipping_options[0].shipping_rate.id).not.toBe(second.shipping_options[0].shipping_rate.id);
  });

  it('a link without options opens sessions without them', async () => {
    const link = (await call('POST', '/v1/payment_links', { currency: 'usd', line_items: [{ name: 'Seat', unit_amount: 4000, quantity: 1 }] })).json();
    expect(link).toMatchObject({
      allow_promotion_codes: false,
      billing_address_collection: 'auto',
      shipping_address_collection: null,
      shipping_options: [],
      custom_fields: [],
    });
    const session = await open(link.url);
    expect(session).toMatchObject({
      allow_promotion_codes: false,
      billing_address_collection: 'auto',
      shipping_address_collection: null,
      shipping_options: [],
      custom_fields: [],
      amount_total: 4000,
    });
  });

  it('bad options are refused by the session rules, naming the parameter, and no link is made', async () => {
    const item = { name: 'Seat', unit_amount: 4000, quantity: 1 };
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ line_items: [{ ...item, adjustable_quantity: { enabled: true, minimum: 2, maximum: 5 } }] }, 400, 'parameter_invalid', 'line_items[0][quantity]'],
      [
        { line_items: [{ ...item, adjustable_quantity: { enabled: true, maximum: 5000 } }] },
        400,
        'parameter_invalid',
        'line_items[0][adjustable_quantity][maximum]',
      ],
      [{ shipping_address_collection: { allowed_countries: ['ZZ'] } }, 400, 'parameter_invalid', 'shipping_address_collection[allowed_countries][0]'],
      [
        { shipping_options: [{ shipping_rate_data: { display_name: 'Post', fixed_amount: { amount: 500, currency: 'gbp' } } }] },
        400,
        'parameter_invalid',
        'shipping_options[0][shipping_rate_data][fixed_amount][currency]',
      ],
      [{ custom_fields: [{ key: 'a b', label: { type: 'custom', custom: 'Note' }, type: 'text' }] }, 400, 'parameter_invalid', 'custom_fields[0][key]'],
      [
        { custom_fields: [{ key: 'size', label: { type: 'custom', custom: 'Size' }, type: 'dropdown' }] },
        400,
        'parameter_invalid',
        'custom_fields[0][dropdown][options]',
      ],
      [
        { custom_fields: ['a', 'b', 'c', 'd'].map((key) => ({ key, label: { type: 'custom', custom: key }, type: 'text' })) },
        400,
        'parameter_invalid',
        'custom_fields',
      ],
      [{ billing_address_collection: 'sometimes' }, 400, 'parameter_invalid', 'billing_address_collection'],
      [{ allow_promotion_codes: 'yes' }, 400, 'parameter_invalid', 'allow_promotion_codes'],
    ];
    for (const [body, status, code, param] of cases) {
      expectError(await call('POST', '/v1/payment_links', { currency: 'eur', line_items: [item], ...body }), status, code, { param });
    }
    expect(await countRows(ctx.db, 'payment_links')).toBe(0);
  });

  it('the dashboard makes a link with the same options', async () => {
    const owner = await signUpOwner(ctx.h, 'Link Shop');
    const base = `/dashboard/api/accounts/${owner.accountId}/test`;
    const res = await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links`, {
      currency: 'eur',
      line_items: [{ name: 'Beans', unit_amount: 1450, quantity: 1, adjustable_quantity: { enabled: true, minimum: 1, maximum: 3 } }],
      allow_promotion_codes: true,
      shipping_address_collection: { allowed_countries: ['DE'] },
      custom_fields: [options.custom_fields[1]],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      allow_promotion_codes: true,
      shipping_address_collection: { allowed_countries: ['DE'] },
      line_items: [{ adjustable_quantity: { minimum: 1, maximum: 3 } }],
      custom_fields: [{ key: 'vat', label: { custom: 'VAT number' } }],
    });
    const refused = await dashboardCall(ctx.h, owner, 'POST', `${base}/payment-links`, {
      currency: 'eur',
      line_items: [{ name: 'Beans', unit_amount: 1450, quantity: 1 }],
      shipping_address_collection: { allowed_countries: ['XX'] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'parameter_invalid', param: 'shipping_address_collection[allowed_countries][0]' });
    expect((await dashboardCall(ctx.h, owner, 'GET', `${base}/payment-links`)).json().data).toHaveLength(1);
  });
});
