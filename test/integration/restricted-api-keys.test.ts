import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { apiResources, type ApiResource } from '../../src/domain/team/api-key-permissions';
import { listApiKeys } from '../../src/domain/team/use-cases/list-api-keys';
import { defineRoute } from '../../src/http/define-route';
import { merchantApi } from '../../src/http/routes/merchant-api';
import { z } from 'zod';
import { testDatabases } from '../support/databases';
import { addMember, dashboardCall, signUpOwner, type DashboardAgent } from '../support/dashboard';
import { dumpDatabase, expectError, merchantCall, useIntegration, withoutBookkeeping, type IntegrationContext } from '../support/integration';

interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  resource: ApiResource;
  access: 'read' | 'write';
  stream: boolean;
}

/** Every merchant API operation with the grant it needs, as the OpenAPI document states it. */
async function operations(ctx: IntegrationContext): Promise<Operation[]> {
  const doc = (await ctx.h.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      if (!op.security?.length) continue;
      const grant = op['x-restricted-key-permission'];
      expect(grant, `${method.toUpperCase()} ${path} names the resource a restricted key needs`).toBeDefined();
      found.push({
        method: method.toUpperCase() as Operation['method'],
        path: path.replace(/\{[a-z_]+\}/g, 'nowhere_123'),
        resource: grant.resource,
        access: grant.access,
        stream: Boolean(op.responses?.['200']?.content?.['text/event-stream']),
      });
    }
  }
  return found;
}

const base = (owner: DashboardAgent) => `/dashboard/api/accounts/${owner.accountId}/test`;

async function restrictedKey(ctx: IntegrationContext, owner: DashboardAgent, permissions: Record<string, string>, name = 'Restricted') {
  const res = await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'restricted', name, permissions });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().secret).toMatch(/^rk_test_[0-9A-Za-z]{24,}$/);
  return res.json() as { id: string; secret: string; name: string; permissions: Record<string, string> };
}

const call = (ctx: IntegrationContext, key: string, op: Operation) => merchantCall(ctx.h, key, op.method, op.path, op.method === 'GET' ? undefined : {});

const unlimited = { rateLimitPerSecond: { test: 100_000 } };

describe.each(testDatabases)('restricted, named and rolled API keys ($name)', (database) => {
  const ctx = useIntegration(database, unlimited);

  it('every merchant API route names a resource a restricted key can be granted, and all resources are used', async () => {
    const ops = await operations(ctx);
    expect(ops.length).toBeGreaterThan(40);
    for (const op of ops) expect(apiResources).toContain(op.resource);
    expect(new Set(ops.map((op) => op.resource))).toEqual(new Set(apiResources));
    for (const op of ops) expect(op.access).toBe(op.method === 'GET' ? 'read' : 'write');
  });

  it('a route added to the merchant API without a resource cannot be registered', async () => {
    const app = Fastify();
    await expect(
      app
        .register(async (scoped) => {
          await merchantApi(scoped, { deps: ctx.h.tillpoint.deps });
          defineRoute(scoped, { method: 'GET', url: '/v1/unguarded', tag: 'Test', summary: 'no resource', response: z.object({}) }, async () => ({}));
        })
        .ready(),
    ).rejects.toThrow(/must name its resource/);
    await app.close();
  });

  it.each(apiResources)(
    '%s: read allows its GETs and refuses its writes; none refuses both; write allows all; other resources stay refused',
    async (resource) => {
      const owner = await signUpOwner(ctx.h, `Shop ${resource}`);
      const ops = await operations(ctx);
      const mine = ops.filter((op) => op.resource === resource);
      const others = ops.filter((op) => op.resource !== resource);
      const reader = await restrictedKey(ctx, owner, { [resource]: 'read' });
      const writer = await restrictedKey(ctx, owner, { [resource]: 'write' });
      const nothing = await restrictedKey(ctx, owner, { [resource]: 'none' });
      const before = withoutBookkeeping(await dumpDatabase(ctx.db));

      for (const op of mine) {
        const label = `${op.method} ${op.path}`;
        const asReader = op.access === 'read' && op.stream ? null : await call(ctx, reader.secret, op);
        if (op.access === 'write') expectError(asReader!, 403, 'api_key_permission_denied');
        else if (asReader) expect(asReader.json().error?.code, label).not.toBe('api_key_permission_denied');
        expectError(await call(ctx, nothing.secret, op), 403, 'api_key_permission_denied');
      }
      for (const op of others) expectError(await call(ctx, writer.secret, op), 403, 'api_key_permission_denied');
      // Refused calls changed nothing.
      expect(withoutBookkeeping(await dumpDatabase(ctx.db))).toEqual(before);

      for (const op of mine.filter((o) => !o.stream)) {
        const res = await call(ctx, writer.secret, op);
        expect([401, 403], `${op.method} ${op.path}: ${res.body}`).not.toContain(res.statusCode);
      }
    },
  );

  it('a read-only key lists payments but cannot refund or create a session; a write key creates what it was granted', async () => {
    const owner = await signUpOwner(ctx.h);
    const key = await restrictedKey(ctx, owner, { payments: 'read', checkout_sessions: 'read', customers: 'write' });
    expect((await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    expect((await merchantCall(ctx.h, key.secret, 'GET', '/v1/checkout/sessions')).statusCode).toBe(200);
    const refused = await merchantCall(ctx.h, key.secret, 'POST', '/v1/checkout/sessions', {
      currency: 'usd',
      line_items: [{ name: 'Kettle', unit_amount: 4000, quantity: 1 }],
    });
    expectError(refused, 403, 'api_key_permission_denied');
    expect(refused.json().error.message).toContain('write access to checkout_sessions');
    expect((await merchantCall(ctx.h, key.secret, 'GET', '/v1/checkout/sessions')).json().data).toEqual([]);
    const customer = await merchantCall(ctx.h, key.secret, 'POST', '/v1/customers', { email: 'ada@example.com' });
    expect(customer.statusCode, customer.body).toBe(200);
    expectError(await merchantCall(ctx.h, key.secret, 'GET', '/v1/refunds'), 403, 'api_key_permission_denied');
  });

  it('a restricted key needs permissions; only a restricted key takes them; unknown resources and levels are refused', async () => {
    const owner = await signUpOwner(ctx.h);
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'restricted' }), 400, 'parameter_missing', {
      param: 'permissions',
    });
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret', permissions: { payments: 'read' } }),
      400,
      'parameter_invalid',
      { param: 'permissions' },
    );
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'restricted', permissions: { charges: 'read' } }),
      400,
      'parameter_unknown',
      { param: 'permissions[charges]' },
    );
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'restricted', permissions: { payments: 'all' } }),
      400,
      'parameter_invalid',
      { param: 'permissions[payments]' },
    );
    const list = (await dashboardCall(ctx.h, owner, 'GET', `${base(owner)}/api-keys`)).json().data;
    expect(list.filter((k: { kind: string }) => k.kind === 'restricted')).toEqual([]);
  });

  it('keys have names: given at creation, renamed, listed; a name over 100 characters is refused', async () => {
    const owner = await signUpOwner(ctx.h);
    const created = await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret', name: '  Shop backend ' });
    expect(created.json().name).toBe('Shop backend');
    const renamed = await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${created.json().id}`, { name: 'Warehouse sync' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${created.json().id}`, { name: 'x'.repeat(101) }),
      400,
      'parameter_invalid',
      { param: 'name' },
    );
    const listed = (await dashboardCall(ctx.h, owner, 'GET', `${base(owner)}/api-keys`)).json().data;
    expect(listed.find((k: { id: string }) => k.id === created.json().id).name).toBe('Warehouse sync');
    // The key still works after a rename.
    expect((await merchantCall(ctx.h, created.json().secret, 'GET', '/v1/payments')).statusCode).toBe(200);
  });

  it("an owner or developer changes a restricted key's permissions: the key's next call obeys them, and it is audited", async () => {
    const owner = await signUpOwner(ctx.h);
    const key = await restrictedKey(ctx, owner, { payments: 'read' });
    expectError(await merchantCall(ctx.h, key.secret, 'GET', '/v1/customers'), 403, 'api_key_permission_denied');
    const changed = await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${key.id}/permissions`, {
      permissions: { payments: 'none', customers: 'write' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: key.id, kind: 'restricted', permissions: { customers: 'write' } });
    // The cached key is forgotten: its very next call has the new grants.
    expect((await merchantCall(ctx.h, key.secret, 'GET', '/v1/customers')).statusCode).toBe(200);
    expectError(await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments'), 403, 'api_key_permission_denied');
    const developer = await addMember(ctx.h, owner, 'developer');
    const byDeveloper = await dashboardCall(ctx.h, developer, 'POST', `${base(owner)}/api-keys/${key.id}/permissions`, { permissions: { payments: 'read' } });
    expect(byDeveloper.statusCode, byDeveloper.body).toBe(200);
    expect((await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    for (const role of ['support', 'viewer']) {
      const member = await addMember(ctx.h, owner, role);
      expectError(
        await dashboardCall(ctx.h, member, 'POST', `${base(owner)}/api-keys/${key.id}/permissions`, { permissions: { refunds: 'write' } }),
        403,
        'insufficient_role',
      );
    }
    const audit = (await dashboardCall(ctx.h, owner, 'GET', `/dashboard/api/accounts/${owner.accountId}/audit-log?limit=100`)).json().data;
    expect(audit.filter((e: { action: string; target: string }) => e.action === 'api_key.permissions_change' && e.target === key.id)).toHaveLength(2);
    // Only a restricted key has permissions; unknown resources and levels and a revoked key are refused.
    const secret = (await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret' })).json();
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${secret.id}/permissions`, { permissions: { payments: 'read' } }),
      400,
      'parameter_invalid',
      { param: 'permissions' },
    );
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${key.id}/permissions`, { permissions: { charges: 'read' } }),
      400,
      'parameter_unknown',
      { param: 'permissions[charges]' },
    );
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${key.id}/permissions`, { permissions: { payments: 'all' } }),
      400,
      'parameter_invalid',
      { param: 'permissions[payments]' },
    );
    await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${key.id}/revoke`);
    expectError(
      await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${key.id}/permissions`, { permissions: { payments: 'write' } }),
      404,
      'resource_missing',
      { param: 'id' },
    );
  });

  it('only roles that manage keys may create, rename, roll or revoke them', async () => {
    const owner = await signUpOwner(ctx.h);
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret', name: 'Backend' })).json();
    for (const role of ['support', 'viewer']) {
      const member = await addMember(ctx.h, owner, role);
      expectError(
        await dashboardCall(ctx.h, member, 'POST', `${base(owner)}/api-keys`, { kind: 'restricted', permissions: { payments: 'read' } }),
        403,
        'insufficient_role',
      );
      expectError(await dashboardCall(ctx.h, member, 'POST', `${base(owner)}/api-keys/${key.id}`, { name: 'Mine' }), 403, 'insufficient_role');
      expectError(await dashboardCall(ctx.h, member, 'POST', `${base(owner)}/api-keys/${key.id}/roll`, { expires_in: 0 }), 403, 'insufficient_role');
    }
    const developer = await addMember(ctx.h, owner, 'developer');
    expect((await dashboardCall(ctx.h, developer, 'POST', `${base(owner)}/api-keys/${key.id}`, { name: 'Backend (dev)' })).statusCode).toBe(200);
    const list = (await dashboardCall(ctx.h, owner, 'GET', `${base(owner)}/api-keys`)).json().data;
    expect(list.find((k: { id: string }) => k.id === key.id).name).toBe('Backend (dev)');
  });

  it('a rolled key keeps working until the expiry chosen, then is refused as invalid; the new one works', async () => {
    const owner = await signUpOwner(ctx.h);
    const old = await restrictedKey(ctx, owner, { payments: 'read' }, 'Reporting');
    // The old key is in this instance's cache when it is rolled.
    expect((await merchantCall(ctx.h, old.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    const rolled = await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${old.id}/roll`, { expires_in: 3600 });
    expect(rolled.statusCode, rolled.body).toBe(201);
    const fresh = rolled.json();
    expect(fresh.secret).toMatch(/^rk_test_/);
    expect(fresh.secret).not.toBe(old.secret);
    expect(fresh.name).toBe('Reporting');
    expect(fresh.permissions).toEqual({ payments: 'read' });
    expect(fresh.rolled.expires_at).toBe(Math.floor(ctx.h.clock.now().getTime() / 1000) + 3600);
    expectError(await merchantCall(ctx.h, fresh.secret, 'POST', '/v1/refunds', { payment: 'pay_x' }), 403, 'api_key_permission_denied');

    ctx.h.clock.advance(3599_000);
    expect((await merchantCall(ctx.h, old.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    expect((await merchantCall(ctx.h, fresh.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    ctx.h.clock.advance(1_000);
    expectError(await merchantCall(ctx.h, old.secret, 'GET', '/v1/payments'), 401, 'api_key_invalid');
    expect((await merchantCall(ctx.h, fresh.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
  });

  it("rolling with expiry now refuses the old key at once; an expired or revoked key cannot be rolled; only Stripe's expiries are taken", async () => {
    const owner = await signUpOwner(ctx.h);
    const old = (await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret', name: 'Backend' })).json();
    expect((await merchantCall(ctx.h, old.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${old.id}/roll`, { expires_in: 60 }), 400, 'parameter_invalid', {
      param: 'expires_in',
    });
    const rolled = await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${old.id}/roll`, { expires_in: 0 });
    expect(rolled.json().secret).toMatch(/^sk_test_/);
    expectError(await merchantCall(ctx.h, old.secret, 'GET', '/v1/payments'), 401, 'api_key_invalid');
    expect((await merchantCall(ctx.h, rolled.json().secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${old.id}/roll`, { expires_in: 3600 }), 404, 'resource_missing', {
      param: 'id',
    });
    await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${rolled.json().id}/revoke`);
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${rolled.json().id}/roll`, { expires_in: 3600 }), 404, 'resource_missing', {
      param: 'id',
    });
    expectError(await merchantCall(ctx.h, rolled.json().secret, 'GET', '/v1/payments'), 401, 'api_key_revoked');
  });

  it("rolling twice never lengthens the first key's life", async () => {
    const owner = await signUpOwner(ctx.h);
    const first = (await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret' })).json();
    const at = Math.floor(ctx.h.clock.now().getTime() / 1000);
    await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${first.id}/roll`, { expires_in: 3600 });
    const again = await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys/${first.id}/roll`, { expires_in: 604800 });
    expect(again.json().rolled.expires_at).toBe(at + 3600);
  });

  it('last used is recorded on use, at most once a minute', async () => {
    const owner = await signUpOwner(ctx.h);
    const key = await restrictedKey(ctx, owner, { payments: 'read' });
    const scope = { accountId: owner.accountId, mode: 'test' as const };
    const lastUsed = async () => (await listApiKeys(ctx.h.tillpoint.deps, { scope })).find((k) => k.id === key.id)!.lastUsedAt?.getTime() ?? null;
    expect(await lastUsed()).toBeNull();
    const first = ctx.h.clock.now().getTime();
    await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments');
    expect(await lastUsed()).toBe(first);
    ctx.h.clock.advance(30_000);
    await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments');
    expect(await lastUsed()).toBe(first);
    ctx.h.clock.advance(31_000);
    await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments');
    expect(await lastUsed()).toBe(first + 61_000);
    // A refused call still counts as a use of the key (it was presented and recognised).
    ctx.h.clock.advance(61_000);
    await merchantCall(ctx.h, key.secret, 'POST', '/v1/refunds', { payment: 'pay_x' });
    expect(await lastUsed()).toBe(first + 122_000);
  });

  it('a key created with an expiry works until then', async () => {
    const owner = await signUpOwner(ctx.h);
    const now = Math.floor(ctx.h.clock.now().getTime() / 1000);
    expectError(await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret', expires_at: now - 1 }), 400, 'parameter_invalid', {
      param: 'expires_at',
    });
    const key = (await dashboardCall(ctx.h, owner, 'POST', `${base(owner)}/api-keys`, { kind: 'secret', expires_at: now + 120 })).json();
    expect(key.expires_at).toBe(now + 120);
    expect((await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments')).statusCode).toBe(200);
    ctx.h.clock.advance(121_000);
    expectError(await merchantCall(ctx.h, key.secret, 'GET', '/v1/payments'), 401, 'api_key_invalid');
  });
});
