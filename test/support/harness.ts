import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../src/domain/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import type { SqlClient } from '../../src/persistence/sql-client';
import { openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';

/** A controllable clock for tests that need time to pass. */
export class TestClock {
  constructor(public current = new Date('2026-06-01T12:00:00Z')) {}
  now = () => new Date(this.current);
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface Harness {
  app: FastifyInstance;
  tillpoint: Tillpoint;
  clock: TestClock;
  /** Every line the server logged, for assertions that something never appears in a log. */
  logLines: string[];
  /** A fresh account's test secret key. */
  newAccountKey(name?: string): Promise<string>;
}

export const PUBLIC_URL = 'http://checkout.test';

/** Settings a suite may give the server, as the environment would (e.g. a test settlement delay). */
export interface HarnessOptions {
  testSettlementDelaySeconds?: number;
  rateLimitPerSecond?: { test?: number; live?: number };
}

/** The real HTTP server over a given database, with a captured log and a test clock. */
export async function startHarness(db: SqlClient, options: HarnessOptions = {}): Promise<Harness> {
  const clock = new TestClock(new Date());
  const tillpoint = await openTillpoint({ db, publicUrl: PUBLIC_URL, now: clock.now, ...options });
  const logLines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const app = await buildHttpServer({
    deps: tillpoint.deps,
    webRoot: '/nonexistent',
    logger: { level: 'trace', stream },
    processorSettings: tillpoint.processorSettings,
  });
  await app.ready();
  return {
    app,
    tillpoint,
    clock,
    logLines,
    async newAccountKey(name = 'Test Shop') {
      return (await createAccount(tillpoint.deps, { name })).testSecretKey;
    },
  };
}
