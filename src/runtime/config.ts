import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PAGE_CHECK_DEFAULT_MINUTES, PAGE_CHECK_MAX_MINUTES } from '../domain/checkout-page/rules';

/** Settings read once from the environment at start-up, typed and checked. */
export interface Config {
  port: number;
  host: string;
  /** Where the embedded database keeps its files when no DATABASE_URL is set. */
  dataDir: string;
  databaseUrl: string | null;
  /** DATABASE_DIRECT_URL: the server itself when DATABASE_URL is a transaction pooler (PgBouncer); null: DATABASE_URL is direct. */
  databaseDirectUrl: string | null;
  /** DATABASE_REPLICA_URL: streaming replicas that lists, searches, analytics and exports read from; none by default. */
  databaseReplicaUrls: string[];
  /** DATABASE_REPLICA_MAX_LAG_MS: a replica further behind than this is skipped and the primary reads. */
  databaseReplicaMaxLagMs: number;
  /** Bounds on every wait on the database (DATABASE_LOCK_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS). */
  databaseTimeouts: { lockMs: number; statementMs: number; idleInTransactionMs: number };
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How long a test-mode capture stays `submitted_for_settlement` before it settles; 0 = at once. */
  testSettlementDelaySeconds: number;
  /** How long after the shopper approves a test local payment (iDEAL…) its bank confirms it. */
  testLocalPaymentDelaySeconds: number;
  /** How long a test bank debit (ACH) takes to settle, and a returned one to come back after that. */
  testAchSettleDelaySeconds: number;
  /** SANDBOX_LATENCY_MS: the test processor's time to answer each call, normally distributed around it; 0 = at once. */
  sandboxLatencyMs: number;
  /** Merchant API requests per second per account (design.md §9: 25 in test mode, 100 in live). */
  rateLimitPerSecond: { test: number; live: number };
  /** 32-byte key that encrypts processor credentials at rest (TILLPOINT_SECRET_KEY); null: none can be stored. */
  secretKey: Buffer | null;
  /** Error reporting to a Sentry-protocol server; off when no DSN is set. */
  sentry: SentryConfig;
  /** An external OFREP flag service that replaces Tillpoint's own flags, or null. */
  flagsOfrepUrl: string | null;
  /** Bearer token `/metrics` asks for (METRICS_TOKEN); null: `/metrics` is open. */
  metricsToken: string | null;
  /** How long a graceful shutdown may take before the process gives up and exits 1. */
  shutdownTimeoutSeconds: number;
  /** Reconciliation's waits (RECONCILE_AFTER_SECONDS, RECONCILE_NOT_FOUND_GRACE_SECONDS): 60 s and 10 min by default. */
  reconciliation: { afterMs: number; notFoundGraceMs: number };
  /** Send Strict-Transport-Security: on when PUBLIC_URL is https, unless HSTS=off. */
  hsts: boolean;
  /** How often the checkout page is fingerprinted and compared with its baseline (PCI DSS 11.6.1: at least weekly). */
  checkoutPageCheckMinutes: number;
  /** SIGNUP: `invite` (default) lets people in only by invitation; `open` lets anyone create an account. */
  signUp: 'open' | 'invite';
  /** SMTP_URL and SMTP_FROM: the mail server that sends password reset links and receipts; null: no email. */
  smtp: { url: string; from: string } | null;
  /** APPLE_PAY_DOMAIN_ASSOCIATION: the path of the Apple Pay domain association file to serve, or null. */
  applePayDomainAssociationFile: string | null;
}

export interface SentryConfig {
  /** The server's DSN (SENTRY_DSN). */
  dsn: string | null;
  /** The public DSN handed to the checkout page at run time (SENTRY_BROWSER_DSN). */
  browserDsn: string | null;
  environment: string;
  release: string;
  /** Share of error events sent, 0..1. */
  sampleRate: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid ${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

const variables = {
  PORT: z.coerce.number().int().min(1).max(65535).default(4242),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.tillpoint'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\/.+/.test(v), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_DIRECT_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\/.+/.test(v), 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_REPLICA_URL: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((url) => url.trim())
        .filter((url) => url !== ''),
    )
    .refine((urls) => urls.length > 0 && urls.every((url) => /^postgres(ql)?:\/\/.+/.test(url)), 'must be one or more postgres:// URLs, separated by commas')
    .optional(),
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(3_600_000).default(2_000),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(2_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(5_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(0),
  TEST_PROCESSOR_LOCAL_PAYMENT_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(3),
  TEST_PROCESSOR_ACH_SETTLE_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  RATE_LIMIT_TEST_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(25),
  RATE_LIMIT_LIVE_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(100),
  TILLPOINT_SECRET_KEY: z
    .string()
    .transform((v) => (/^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64')))
    .refine((key) => key.length === 32, 'must be 32 random bytes, as 64 hex digits or base64 (openssl rand -hex 32)')
    .optional(),
  SENTRY_DSN: sentryDsn().optional(),
  SENTRY_BROWSER_DSN: sentryDsn().optional(),
  SENTRY_ENVIRONMENT: z
    .string()
    .regex(/^[^\s/]{1,64}$/, 'must be 1–64 characters without spaces or slashes')
    .optional(),
  SENTRY_RELEASE: z
    .string()
    .regex(/^[^\s/]{1,200}$/, 'must be 1–200 characters without spaces or slashes')
    .optional(),
  SENTRY_SAMPLE_RATE: z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(1),
  FLAGS_OFREP_URL: z.url({ protocol: /^https?$/ }).optional(),
  // An RFC 6750 bearer token, long enough not to be guessed.
  METRICS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9._~+/=-]{16,512}$/, 'must be 16–512 characters of A–Z a–z 0–9 . _ ~ + / = - (e.g. openssl rand -hex 32)')
    .optional(),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1, 'must be between 1 and 300').max(300, 'must be between 1 and 300').default(10),
  RECONCILE_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 3600)
    .default(60),
  RECONCILE_NOT_FOUND_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(600),
  HSTS: z.enum(['on', 'off']).default('on'),
  APPLE_PAY_DOMAIN_ASSOCIATION: z.string().min(1).max(4096).optional(),
  CHECKOUT_PAGE_CHECK_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_CHECK_MAX_MINUTES, 'must be at most 10080 (a week): PCI DSS 11.6.1 asks for at least weekly checks')
    .default(PAGE_CHECK_DEFAULT_MINUTES),
  SIGNUP: z.enum(['open', 'invite']).default('invite'),
  SMTP_URL: z
    .string()
    .refine((v) => /^smtps?:\/\/[^\s]+$/.test(v), 'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587')
    .optional(),
  SMTP_FROM: z
    .string()
    .regex(/^[^\r\n]{3,200}$/, 'must be a sender address, e.g. "Tillpoint <no-reply@pay.example.com>"')
    .optional(),
};

/** What `tillpoint serve --help` and docs/operations.md say about a variable. */
export interface SettingDescription {
  /** The default as a person reads it; without one, the schema's default, or "—" for none. */
  shownDefault?: string;
  meaning: string;
}

/**
 * Every variable's meaning: one entry per variable above (the type insists), printed by
 * `tillpoint serve --help` and copied into docs/operations.md (a test compares the two).
 */
const descriptions: { [Name in keyof typeof variables]: SettingDescription } = {
  PORT: { meaning: 'HTTP port' },
  HOST: { meaning: 'interface to listen on (`0.0.0.0` to accept outside connections)' },
  DATA_DIR: { meaning: 'folder of the embedded database (git-ignored)' },
  DATABASE_URL: { meaning: '`postgres://…`: use a PostgreSQL server instead of the embedded database' },
  DATABASE_DIRECT_URL: {
    meaning:
      'the PostgreSQL server itself, when `DATABASE_URL` goes through a transaction pooler (PgBouncer `pool_mode = transaction`): statements are then sent unnamed and the API key change feed LISTENs here (docs/scaling.md)',
  },
  DATABASE_REPLICA_URL: {
    meaning:
      "one or more streaming replicas' `postgres://…` URLs, separated by commas: the dashboard's lists, search, analytics and exports and the API's list endpoints read from them (docs/scaling.md)",
  },
  DATABASE_REPLICA_MAX_LAG_MS: {
    meaning: 'a replica more than this far behind the primary, or not answering, is skipped and the primary serves its reads (100–3600000)',
  },
  DATABASE_LOCK_TIMEOUT_MS: {
    meaning:
      'longest wait for a row or table lock; past it the request answers 503 `database_unavailable` and changes nothing, except a payment the processor already answered: the shopper is told its outcome, recorded moments later',
  },
  DATABASE_STATEMENT_TIMEOUT_MS: { meaning: 'longest run of one statement (PostgreSQL); past it, 503 `database_unavailable`' },
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: { meaning: 'a transaction left idle this long is rolled back and its connection freed' },
  PUBLIC_URL: { shownDefault: 'http://localhost:$PORT', meaning: 'the address shoppers reach; used in checkout URLs' },
  LOG_LEVEL: { meaning: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`' },
  TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS: {
    meaning: 'test mode: seconds before a capture settles (refunds before then are voids or `payment_not_settled`)',
  },
  TEST_PROCESSOR_LOCAL_PAYMENT_DELAY_SECONDS: {
    meaning:
      'test mode: seconds from the shopper approving a local payment (iDEAL…) in the test window to its bank confirming it, as Braintree notifies `LOCAL_PAYMENT_COMPLETED`',
  },
  TEST_PROCESSOR_ACH_SETTLE_DELAY_SECONDS: {
    meaning:
      'test mode: seconds from a bank debit (ACH, `us_bank_account`) to its settlement, as Braintree notifies `TRANSACTION_SETTLED`; a test account that is returned comes back as long again after that',
  },
  SANDBOX_LATENCY_MS: {
    meaning:
      'test mode: the test processor answers each server-to-processor call (authorize, capture, refund…) after about this long, normally distributed with a standard deviation of a quarter of it, as a processor across the network does; for load tests (`npm run bench:scale`)',
  },
  RATE_LIMIT_TEST_PER_SECOND: { meaning: 'merchant API requests per second per account in test mode' },
  RATE_LIMIT_LIVE_PER_SECOND: { meaning: 'merchant API requests per second per account in live mode' },
  TILLPOINT_SECRET_KEY: {
    meaning: '32 random bytes (64 hex digits or base64) that encrypt processor credentials; required to store Braintree keys',
  },
  SENTRY_DSN: { meaning: 'error reporting of the server to Sentry or GlitchTip (docs/observability.md)' },
  SENTRY_BROWSER_DSN: { meaning: 'error reporting of the checkout page (a public DSN)' },
  SENTRY_ENVIRONMENT: { shownDefault: 'production', meaning: 'the environment tag of what is reported' },
  SENTRY_RELEASE: { shownDefault: 'tillpoint@<version>', meaning: 'the release tag of what is reported' },
  SENTRY_SAMPLE_RATE: { meaning: 'share of error events sent, 0..1' },
  FLAGS_OFREP_URL: { meaning: "read flags from an external OFREP flag service instead of Tillpoint's own" },
  METRICS_TOKEN: { meaning: '16+ characters: `/metrics` then requires `Authorization: Bearer <token>` (open without it)' },
  SHUTDOWN_TIMEOUT_SECONDS: { meaning: 'how long a graceful stop (SIGTERM/SIGINT) may take before the process exits 1' },
  RECONCILE_AFTER_SECONDS: {
    meaning:
      'the lease of a payment, capture, void or refund in flight: after it, reconciliation asks the processor and records what it did; a payment it does not know fails (its session open again), a refund it did not make fails (its amount released)',
  },
  RECONCILE_NOT_FOUND_GRACE_SECONDS: {
    meaning: 'a payment failed as unknown is asked about again until this long after it began; a charge found late is undone',
  },
  HSTS: { meaning: '`off` stops the `Strict-Transport-Security` header sent when `PUBLIC_URL` is https' },
  APPLE_PAY_DOMAIN_ASSOCIATION: {
    meaning:
      'path of the Apple Pay domain association file (from the Braintree Control Panel), served at `/.well-known/apple-developer-merchantid-domain-association` (docs/braintree.md)',
  },
  SIGNUP: {
    meaning:
      '`invite`: new people join the dashboard only by invitation; `open`: anyone may sign up and create an account (docs/operations.md, "Exposing an instance safely")',
  },
  SMTP_URL: { meaning: '`smtp://user:password@host:587` or `smtps://…:465`: send password reset links and receipts by email' },
  SMTP_FROM: { shownDefault: 'Tillpoint <no-reply@host of PUBLIC_URL>', meaning: 'the sender of password reset and receipt emails' },
  CHECKOUT_PAGE_CHECK_MINUTES: {
    meaning: "how often the checkout page's scripts and security headers are compared with the approved baseline (1–10080)",
  },
};

export interface Setting {
  name: string;
  /** `—` when unset means "none" (the feature is off, or another setting decides). */
  shownDefault: string;
  meaning: string;
}

/** The settings table, in the order of `variables`. */
export function settings(): Setting[] {
  return (Object.keys(variables) as (keyof typeof variables)[]).map((name) => {
    const { shownDefault, meaning } = descriptions[name];
    const parsed = variables[name].safeParse(undefined);
    const fromSchema = parsed.success && parsed.data !== undefined ? String(parsed.data) : '—';
    return { name, shownDefault: shownDefault ?? fromSchema, meaning };
  });
}

/** The settings as the markdown table docs/operations.md shows. */
export function settingsMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = settings().map((s) => `| \`${s.name}\` | ${s.shownDefault === '—' ? '—' : `\`${cell(s.shownDefault)}\``} | ${cell(s.meaning)} |`);
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** A Sentry DSN: http(s)://PUBLIC_KEY@HOST[/PATH]/PROJECT_ID, as Sentry, self-hosted Sentry and GlitchTip issue them. */
function sentryDsn() {
  return z.string().refine((v) => /^https?:\/\/[^@/\s]+@[^/\s]+\/(?:[^\s]*\/)?\d+$/.test(v), 'must be a DSN like https://PUBLIC_KEY@host/PROJECT_ID');
}

/** This install's version, from its package.json. */
export function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function smtpOf(url: string | undefined, from: string | undefined, publicUrl: string): Config['smtp'] {
  if (!url) {
    if (from) throw new ConfigError('SMTP_FROM', 'is set but SMTP_URL is not: set SMTP_URL to the mail server');
    return null;
  }
  return { url, from: from ?? `Tillpoint <no-reply@${new URL(publicUrl).hostname}>` };
}

function directUrlOf(url: string | undefined, direct: string | undefined): string | null {
  if (direct && !url) throw new ConfigError('DATABASE_DIRECT_URL', 'is set but DATABASE_URL is not: set DATABASE_URL to the pooler (PgBouncer)');
  return direct ?? null;
}

function replicaUrlsOf(url: string | undefined, replicas: string[] | undefined): string[] {
  if (replicas && !url) throw new ConfigError('DATABASE_REPLICA_URL', 'is set but DATABASE_URL is not: replicas serve a PostgreSQL primary');
  return replicas ?? [];
}

/** Whether the environment names the public address (PUBLIC_URL, or PORT that the default is made of). */
export function publicUrlIsSet(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.PUBLIC_URL || env.PORT);
}

/** Reads the configuration; a bad value throws a `ConfigError` naming the variable. */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const read = <K extends keyof typeof variables>(name: K): z.output<(typeof variables)[K]> => {
    const raw = env[name];
    const result = variables[name].safeParse(raw === '' ? undefined : raw);
    if (!result.success) throw new ConfigError(name, result.error.issues[0]?.message ?? 'invalid value');
    return result.data as z.output<(typeof variables)[K]>;
  };
  const port = read('PORT');
  const publicUrl = (read('PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: read('HOST'),
    dataDir: path.resolve(read('DATA_DIR')),
    databaseUrl: read('DATABASE_URL') ?? null,
    databaseDirectUrl: directUrlOf(read('DATABASE_URL'), read('DATABASE_DIRECT_URL')),
    databaseReplicaUrls: replicaUrlsOf(read('DATABASE_URL'), read('DATABASE_REPLICA_URL')),
    databaseReplicaMaxLagMs: read('DATABASE_REPLICA_MAX_LAG_MS'),
    databaseTimeouts: {
      lockMs: read('DATABASE_LOCK_TIMEOUT_MS'),
      statementMs: read('DATABASE_STATEMENT_TIMEOUT_MS'),
      idleInTransactionMs: read('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
    },
    publicUrl,
    logLevel: read('LOG_LEVEL'),
    testSettlementDelaySeconds: read('TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS'),
    testLocalPaymentDelaySeconds: read('TEST_PROCESSOR_LOCAL_PAYMENT_DELAY_SECONDS'),
    testAchSettleDelaySeconds: read('TEST_PROCESSOR_ACH_SETTLE_DELAY_SECONDS'),
    sandboxLatencyMs: read('SANDBOX_LATENCY_MS'),
    rateLimitPerSecond: { test: read('RATE_LIMIT_TEST_PER_SECOND'), live: read('RATE_LIMIT_LIVE_PER_SECOND') },
    secretKey: read('TILLPOINT_SECRET_KEY') ?? null,
    sentry: {
      dsn: read('SENTRY_DSN') ?? null,
      browserDsn: read('SENTRY_BROWSER_DSN') ?? null,
      environment: read('SENTRY_ENVIRONMENT') ?? 'production',
      release: read('SENTRY_RELEASE') ?? `tillpoint@${packageVersion()}`,
      sampleRate: read('SENTRY_SAMPLE_RATE'),
    },
    flagsOfrepUrl: read('FLAGS_OFREP_URL')?.replace(/\/+$/, '') ?? null,
    metricsToken: read('METRICS_TOKEN') ?? null,
    shutdownTimeoutSeconds: read('SHUTDOWN_TIMEOUT_SECONDS'),
    reconciliation: {
      afterMs: read('RECONCILE_AFTER_SECONDS') * 1000,
      notFoundGraceMs: read('RECONCILE_NOT_FOUND_GRACE_SECONDS') * 1000,
    },
    hsts: read('HSTS') === 'on' && publicUrl.startsWith('https://'),
    checkoutPageCheckMinutes: read('CHECKOUT_PAGE_CHECK_MINUTES'),
    signUp: read('SIGNUP'),
    smtp: smtpOf(read('SMTP_URL'), read('SMTP_FROM'), publicUrl),
    applePayDomainAssociationFile: read('APPLE_PAY_DOMAIN_ASSOCIATION') ?? null,
  };
}
