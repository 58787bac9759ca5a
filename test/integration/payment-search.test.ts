import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { createSessionOf, expectError, merchantCall, payCall, tokenize, useIntegration } from '../support/integration';

describe.each(testDatabases)('search: GET /v1/payments/search and the dashboard search box ($name)', (database) => {
  const ctx = useIntegration(database);

  /** Pays a USD session of `amount` with `email` and `card`, carrying `extra` (metadata, client_reference_id). */
  async function pay(amount: number, email: string, extra: Record<string, unknown> = {}, card = '4111 1111 1111 1111') {
    const session = await createSessionOf(ctx, amount, extra);
    const res = await payCall(ctx.h, session.id, await tokenize(ctx.h, session.id, { number: card, exp_month: 12, exp_year: 2034, cvc: '123' }), email);
    ctx.h.clock.advance(2000);
    const payment = (await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments?checkout_session=${session.id}`)).json().data[0];
    return { sessionId: session.id as string, payment, status: res.statusCode };
  }

  const search = async (query: string, extra = '') => {
    const res = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/search?query=${encodeURIComponent(query)}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { object: string; url: string; has_more: boolean; data: Array<{ id: string; amount: number }> };
  };
  const amountsOf = async (query: string) => (await search(query)).data.map((p) => p.amount);

  it("writes a session's metadata straight into its index: no pending list is left for a later shopper to merge", async () => {
    await pay(1000, 'ann@buyer.example', { metadata: { order: 'A-1', channel: 'web' } });
    await pay(2000, 'bob@buyer.example', { metadata: { order: 'B-2' } });
    // What a GIN index's pending list holds, merged now: nothing, as each write took its own entries.
    const { rows } = await ctx.db.query<{ pages: string }>("SELECT gin_clean_pending_list('checkout_sessions_metadata'::regclass) AS pages");
    expect(Number(rows[0]!.pages)).toBe(0);
    expect(await amountsOf("metadata['order']:'B-2'")).toEqual([2000]);
  });

  it('finds payments by every field of the query language, newest first, and pages', async () => {
    const ann = await pay(1000, 'ann@buyer.example', { metadata: { order: 'A-1' }, client_reference_id: 'cart-77' });
    await pay(200100, 'bob@other.example'); // declined: insufficient funds
    const cat = await pay(5000, 'Cat@Buyer.example', { metadata: { order: 'C-3', channel: 'web' } }, '5555 5555 5555 4444');
    const start = Math.floor(ctx.h.clock.now().getTime() / 1000);
    ctx.h.clock.advance(5000);
    await pay(7000, 'dan@buyer.example');

    const all = await search("currency:'usd'");
    expect(all).toMatchObject({ object: 'list', url: '/v1/payments/search', has_more: false });
    expect(all.data.map((p) => p.amount)).toEqual([7000, 5000, 200100, 1000]);

    expect(await amountsOf("status:'failed'")).toEqual([200100]);
    expect(await amountsOf("status:'succeeded' AND amount>1000")).toEqual([7000, 5000]);
    expect(await amountsOf('amount<5000')).toEqual([1000]);
    expect(await amountsOf('amount>=5000 AND amount<=7000')).toEqual([7000, 5000]);
    expect(await amountsOf('amount:1000')).toEqual([1000]);
    expect(await amountsOf(`created>${start}`)).toEqual([7000]);
    expect(await amountsOf(`created<=${start}`)).toEqual([5000, 200100, 1000]);
    expect(await amountsOf("email:'CAT@buyer.example'")).toEqual([5000]);
    expect(await amountsOf("email~'@buyer.example'")).toEqual([7000, 5000, 1000]);
    expect(await amountsOf("email~'ann@'")).toEqual([1000]);
    expect(await amountsOf("email~'uyer'")).toEqual([]); // the middle of an address is neither its start nor its end
    expect(await amountsOf("last4:'4444'")).toEqual([5000]);
    expect(await amountsOf("metadata['order']:'C-3'")).toEqual([5000]);
    expect(await amountsOf("metadata['order']:'C-3' AND metadata['channel']:'app'")).toEqual([]);
    expect(await amountsOf("client_reference_id:'cart-77'")).toEqual([1000]);
    expect(await amountsOf(`id:'${cat.payment.id}'`)).toEqual([5000]);
    expect(await amountsOf(`id~'${cat.payment.id.slice(0, 10)}'`)).toEqual([5000]);
    expect(await amountsOf(`checkout_session:'${ann.sessionId}'`)).toEqual([1000]);

    const first = await search("email~'buyer.example'", '&limit=2');
    expect(first.has_more).toBe(true);
    const second = await search("email~'buyer.example'", `&limit=2&starting_after=${first.data[1]!.id}`);
    expect(second).toMatchObject({ has_more: false });
    expect(second.data.map((p) => p.amount)).toEqual([1000]);
  });

  it("finds only the caller's own payments", async () => {
    await pay(1234, 'mine@buyer.example');
    const other = await signUpOwner(ctx.h, 'Other Shop');
    const otherKey = (await dashboardCall(ctx.h, other, 'POST', `/dashboard/api/accounts/${other.accountId}/test/api-keys`, { kind: 'secret' })).json().secret;
    const res = await merchantCall(ctx.h, otherKey, 'GET', `/v1/payments/search?query=${encodeURIComponent('amount:1234')}`);
    expect(res.json().data).toEqual([]);
    expect(await amountsOf('amount:1234')).toEqual([1234]);
  });

  it.each([
    ["colour:'red'", /unknown field colour/],
    ["status:'succeeded' OR status:'failed'", /OR is not supported/],
    ['amount>lots', /whole number/],
    ["last4:'12'", /4 digits/],
  ])('answers parameter_invalid on query for %j', async (query, message) => {
    const res = await merchantCall(ctx.h, ctx.key, 'GET', `/v1/payments/search?query=${encodeURIComponent(query)}`);
    expectError(res, 400, 'parameter_invalid', { param: 'query' });
    expect(res.json().error.message).toMatch(message);
  });

  it('answers parameter_missing without a query and parameter_unknown for other parameters', async () => {
    expectError(await merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments/search'), 400, 'parameter_missing', { param: 'query' });
    expectError(await merchantCall(ctx.h, ctx.key, 'GET', '/v1/payments/search?query=amount:1&colour=red'), 400, 'parameter_unknown', { param: 'colour' });
  });

  describe('the dashboard search box', () => {
    async function owner(): Promise<{ owner: DashboardAgent; base: string }> {
      // The integration context's key belongs to its own account: the box searches that account.
      const agent = await signUpOwner(ctx.h, 'Search Shop');
      return { owner: agent, base: `/dashboard/api/accounts/${agent.accountId}/test` };
    }

    it('finds each kind by each term: id prefix, email part, last4, amount, metadata value, client_reference_id', async () => {
      const { owner: agent, base } = await owner();
      const key = (await dashboardCall(ctx.h, agent, 'POST', `${base}/api-keys`, { kind: 'secret' })).json().secret;
      const call = (method: 'GET' | 'POST', url: string, body?: unknown) => merchantCall(ctx.h, key, method, url, body);
      const session = (
        await call('POST', '/v1/checkout/sessions', {
          currency: 'usd',
          line_items: [{ name: 'Lamp', unit_amount: 4250, quantity: 1 }],
          metadata: { order: 'ORD-991' },
          client_reference_id: 'crm-5521',
        })
      ).json();
      await payCall(
        ctx.h,
        session.id,
        await tokenize(ctx.h, session.id, { number: '5555 5555 5555 4444', exp_month: 12, exp_year: 2034, cvc: '123' }),
        'Zoe@Lamps.example',
      );
      const payment = (await call('GET', `/v1/payments?checkout_session=${session.id}`)).json().data[0];
      const refund = (await call('POST', '/v1/refunds', { payment: payment.id, amount: 1250 })).json();
      const link = (await call('POST', '/v1/payment_links', { currency: 'usd', line_items: [{ name: 'Seat', unit_amount: 4000, quantity: 1 }] })).json();

      const box = async (q: string) => {
        const res = await dashboardCall(ctx.h, agent, 'GET', `${base}/search?q=${encodeURIComponent(q)}`);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().data as Array<{ kind: string; id: string }>).map((hit) => `${hit.kind} ${hit.id}`).sort();
      };
      // A payment's id finds its refunds too.
      expect(await box(payment.id.slice(0, 8))).toEqual([`payment ${payment.id}`, `refund ${refund.id}`]);
      expect(await box(session.id.slice(0, 7))).toEqual([`checkout_session ${session.id}`, `payment ${payment.id}`].sort());
      expect(await box(refund.id)).toEqual([`refund ${refund.id}`]);
      expect(await box(link.id.slice(0, 9))).toEqual([`payment_link ${link.id}`]);
      expect(await box('zoe@')).toEqual([`checkout_session ${session.id}`, `payment ${payment.id}`].sort());
      expect(await box('LAMPS.example')).toEqual([`checkout_session ${session.id}`, `payment ${payment.id}`].sort());
      expect(await box('4444')).toEqual([`payment ${payment.id}`]);
      expect(await box('42.50')).toEqual([`checkout_session ${session.id}`, `payment ${payment.id}`].sort());
      expect(await box('12.50')).toEqual([`refund ${refund.id}`]);
      expect(await box('ORD-991')).toEqual([`checkout_session ${session.id}`, `payment ${payment.id}`].sort());
      expect(await box('crm-5521')).toEqual([`checkout_session ${session.id}`, `payment ${payment.id}`].sort());
      expect(await box(link.url.split('/').at(-1))).toEqual([`payment_link ${link.id}`]);
      expect(await box('nothing-like-this')).toEqual([]);

      const [hit] = (await dashboardCall(ctx.h, agent, 'GET', `${base}/search?q=4444`)).json().data;
      expect(hit).toMatchObject({
        kind: 'payment',
        amount: 4250,
        currency: 'USD',
        status: 'succeeded',
        customer_email: 'Zoe@Lamps.example',
        detail: 'mastercard 4444',
      });

      // A viewer sees emails masked, so finds nothing by one, and the hits it does see are masked.
      const viewer = await addMember(ctx.h, agent, 'viewer');
      expect((await dashboardCall(ctx.h, viewer, 'GET', `${base}/search?q=zoe@`)).json().data).toEqual([]);
      const seen = (await dashboardCall(ctx.h, viewer, 'GET', `${base}/search?q=4444`)).json().data[0];
      expect(seen.customer_email).toBe('Z•••@Lamps.example');

      expectError(await dashboardCall(ctx.h, agent, 'GET', `${base}/search?q=`), 400, 'parameter_missing', { param: 'q' });
      expectError(await dashboardCall(ctx.h, agent, 'GET', `${base}/search?q=${'x'.repeat(201)}`), 400, 'parameter_invalid', { param: 'q' });
    });
  });
});
