import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { createAccount } from '../../src/domain/team/use-cases/create-account';
import { buildHttpServer } from '../../src/http/server';
import type { SqlClient } from '../../src/persistence/sql-client';
import { openTillpoint, type Tillpoint } from '../../src/runtime/open-tillpoint';
import { checkRepliesAgainstContracts, type ReplyProblem } from './reply-check';
import type { ErrorReporter } from '../../src/adapters/telemetry/server-reporting';

/** A controllable clock for tests that need time to pass. */
export class TestClock {
  private realTime = false;
  constructor(public current = new Date('2026-06-01T12:00:00Z')) {}
  now = () => (this.realTime ? new Date() : new Date(this.current));
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
  /** From now on the clock is the wall clock: for tests whose requests come from another process. */
  followRealTime() {
    this.realTime = true;
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
  /** With `checkReplies`: every answer of a public route that did not match its documented schema. */
  replyProblems: ReplyProblem[];
}

export const PUBLIC_URL = 'http://checkout.test';

/** Settings a suite may give the server, as the environment would (e.g. a test settlement delay). */
export interface HarnessOptions {
  testSettlementDelaySeconds?: number;
  rateLimitPerSecond?: { test?: number; live?: number };
  /** Parse every public route's answer with its documented response schema (see reply-check.ts). */
  checkReplies?: boolean;
  /** Built web apps to serve (a copy of dist/web); none by default. */
  webRoot?: string;
  /** Where the server reports errors and alerts (a Sentry stand-in); none by default. */
  reporter?: ErrorReporter;
  /**
   * SIGNUP: `open` by default here, since most suites sign up the owners they need; the suites of
   * instance access say `invite`, the product's default.
   */
  signUp?: 'open' | 'invite';
  /** SMTP_URL and SMTP_FROM (an in-process SMTP receiver); no email by default. */
  smtp?: { url: string; from: string };
  /** The Apple Pay domain association file's content (APPLE_PAY_DOMAIN_ASSOCIATION); none by default. */
  applePayDomainAssociation?: string;
  /** Read replicas (DATABASE_REPLICA_URL) and their bound (DATABASE_REPLICA_MAX_LAG_MS); none by default. */
  replicas?: { databases: SqlClient[]; maxLagMs: number; checkEveryMs?: number };
}

/** The real HTTP server over a given database, with a captured log and a test clock. */
export async function startHarness(db: SqlClient, harnessOptions: HarnessOptions = {}): Promise<Harness> {
  const { checkReplies, ...options } = harnessOptions;
  const clock = new TestClock(new Date());
  const { webRoot, reporter, applePayDomainAssociation, ...settings } = options;
  const tillpoint = await openTillpoint({ db, publicUrl: PUBLIC_URL, now: clock.now, signUp: 'open', ...settings });
  const logLines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const app = await buildHttpServer({
    deps: tillpoint.deps,
    webRoot: webRoot ?? '/nonexistent',
    reporter,
    logger: { level: 'trace', stream },
    processorSettings: tillpoint.processorSettings,
    applePayDomainAssociation: applePayDomainAssociation ?? null,
    // As `tillpoint serve` runs: statements served oldest request first.
  });
  const replyProblems = checkReplies ? checkRepliesAgainstContracts(app) : [];
  await app.ready();
  return {
    replyProblems,
    app,
    tillpoint,
    clock,
    logLines,
    async newAccountKey(name = 'Test Shop') {
      return (await createAccount(tillpoint.deps, { name })).testSecretKey;
    },
  };
}
