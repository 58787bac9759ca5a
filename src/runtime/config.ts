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
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** How long a test-mode capture stays `submitted_for_settlement` before it settles; 0 = at once. */
  testSettlementDelaySeconds: number;
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
  /** SMTP_URL and SMTP_FROM: the mail server that sends password reset links; null: no email. */
  smtp: { url: string; from: string } | null;
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
  constructor(readonly variable: string, problem: string) {
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
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS: z.coerce.number().int().min(0).max(7 * 24 * 3600).default(0),
  RATE_LIMIT_TEST_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(25),
  RATE_LIMIT_LIVE_PER_SECOND: z.coerce.number().int().min(1).max(100_000).default(100),
  TILLPOINT_SECRET_KEY: z
    .string()
    .transform((v) => (/^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64')))
    .refine((key) => key.length === 32, 'must be 32 random bytes, as 64 hex digits or base64 (openssl rand -hex 32)')
    .optional(),
  SENTRY_DSN: sentryDsn().optional(),
  SENTRY_BROWSER_DSN: sentryDsn().optional(),
  SENTRY_ENVIRONMENT: z.string().regex(/^[^\s/]{1,64}$/, 'must be 1–64 characters without spaces or slashes').optional(),
  SENTRY_RELEASE: z.string().regex(/^[^\s/]{1,200}$/, 'must be 1–200 characters without spaces or slashes').optional(),
  SENTRY_SAMPLE_RATE: z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').default(1),
  FLAGS_OFREP_URL: z.url({ protocol: /^https?$/ }).optional(),
  // An RFC 6750 bearer token, long enough not to be guessed.
  METRICS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9._~+/=-]{16,512}$/, 'must be 16–512 characters of A–Z a–z 0–9 . _ ~ + / = - (e.g. openssl rand -hex 32)')
    .optional(),
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(1, 'must be between 1 and 300').max(300, 'must be between 1 and 300').default(10),
  RECONCILE_AFTER_SECONDS: z.coerce.number().int().min(0).max(24 * 3600).default(60),
  RECONCILE_NOT_FOUND_GRACE_SECONDS: z.coerce.number().int().min(0).max(7 * 24 * 3600).default(600),
  HSTS: z.enum(['on', 'off']).default('on'),
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
  SMTP_FROM: z.string().regex(/^[^\r\n]{3,200}$/, 'must be a sender address, e.g. "Tillpoint <no-reply@pay.example.com>"').optional(),
};

/** A Sentry DSN: http(s)://PUBLIC_KEY@HOST[/PATH]/PROJECT_ID, as Sentry, self-hosted Sentry and GlitchTip issue them. */
function sentryDsn() {
  return z
    .string()
    .refine((v) => /^https?:\/\/[^@/\s]+@[^/\s]+\/(?:[^\s]*\/)?\d+$/.test(v), 'must be a DSN like https://PUBLIC_KEY@host/PROJECT_ID');
}

function packageVersion(): string {
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
    publicUrl,
    logLevel: read('LOG_LEVEL'),
    testSettlementDelaySeconds: read('TEST_PROCESSOR_SETTLEMENT_DELAY_SECONDS'),
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
  };
}
