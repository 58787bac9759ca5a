import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import braintree from 'braintree';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { BraintreeSettings } from '../../src/domain/processors/processor-config';
import { setProcessorConfig } from '../../src/domain/processors/use-cases/set-processor-config';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import type { SqlClient } from '../../src/persistence/sql-client';
import { openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';
import { BraintreeGatewayEmulator, type EmulatorCredentials } from './braintree-gateway-emulator';
import { truncateAll, type TestDatabase } from './databases';
import { TestClock } from './harness';
import { bearer, rows } from './integration';

/** One Braintree merchant as the emulator knows it, and the matching settings for our adapter. */
export const emulatedMerchant: EmulatorCredentials = {
  merchantId: 'tillpoint_merchant',
  publicKey: 'pub_tillpoint',
  privateKey: 'priv_tillpoint_S3cret',
  merchantAccounts: { shop_usd: 'USD', shop_eur: 'EUR' },
};

export function emulatedMerchantSettings(overrides: Partial<BraintreeSettings> = {}): BraintreeSettings {
  return {
    environment: 'development',
    merchantId: emulatedMerchant.merchantId,
    publicKey: emulatedMerchant.publicKey,
    privateKey: emulatedMerchant.privateKey,
    merchantAccounts: { USD: 'shop_usd', EUR: 'shop_eur' },
    googlePayMerchantId: null,
    requireThreeDSecure: false,
    requireCvvForSavedCards: false,
    ...overrides,
  };
}

/**
 * One Braintree suite's world, for each database: the gateway emulator on a port of its own (the
 * SDK's development environment points at it), Tillpoint on the database with its HTTP server, and
 * before each test an empty database with an account whose test mode charges through Braintree.
 * The emulator keeps its state between tests; a suite clears what it asserts on.
 */
export interface BraintreeIntegration {
  readonly emulator: BraintreeGatewayEmulator;
  readonly clock: TestClock;
  /** The server's log lines (at `logLevel`), cleared before each test. */
  readonly logLines: string[];
  db: SqlClient;
  tillpoint: Tillpoint;
  app: FastifyInstance;
  accountId: string;
  key: string;
}

/**
 * What the Braintree suites do again and again against a `useBraintreeIntegration` server: call the
 * merchant API with the account's test key, post a notification as Braintree does (a form with
 * bt_signature and bt_payload), and read an object's event types in order.
 */
export function braintreeCalls(bt: BraintreeIntegration) {
  return {
    api: (method: 'GET' | 'POST', url: string, payload?: object) => bt.app.inject({ method, url, headers: bearer(bt.key), ...(payload ? { payload } : {}) }),
    notify: (form: { bt_signature: string; bt_payload: string }, url = `/webhooks/braintree/${bt.accountId}?mode=test`) =>
      bt.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      }),
    eventTypes: async (id: string) => (await rows(bt.db, 'SELECT type FROM events WHERE object_id = $1 ORDER BY created_at, id', [id])).map((e) => e.type),
  };
}

export function useBraintreeIntegration(database: TestDatabase, options: { logLevel?: 'trace' | 'info' | false } = {}): BraintreeIntegration {
  const bt = { emulator: new BraintreeGatewayEmulator(emulatedMerchant), clock: new TestClock(new Date()), logLines: [] as string[] } as BraintreeIntegration;
  beforeAll(async () => {
    const port = await bt.emulator.start();
    (braintree.Environment.Development as unknown as { port: string }).port = String(port);
    bt.db = await database.openMigrated();
    bt.tillpoint = await openTillpoint({
      db: bt.db,
      publicUrl: 'http://checkout.test',
      now: bt.clock.now,
      secretKey: randomBytes(32),
      braintree: { timeoutMs: 500 },
    });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        bt.logLines.push(chunk.toString());
        done();
      },
    });
    const level = options.logLevel ?? false;
    bt.app = await buildHttpServer({ deps: bt.tillpoint.deps, webRoot: '/nonexistent', logger: level ? { level, stream } : false });
    await bt.app.ready();
  });
  afterAll(async () => {
    await bt.app?.close();
    await bt.db?.close();
    await bt.emulator.stop();
  });
  beforeEach(async () => {
    await truncateAll(bt.db);
    bt.logLines.length = 0;
    const created = await createAccount(bt.tillpoint.deps, { name: 'Braintree Shop' });
    bt.accountId = created.account.id;
    bt.key = created.testSecretKey;
    await setProcessorConfig(bt.tillpoint.processorSettings, {
      accountId: bt.accountId,
      mode: 'test',
      actor: null,
      processor: 'braintree',
      braintree: emulatedMerchantSettings(),
    });
  });
  return bt;
}
