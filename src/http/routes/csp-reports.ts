import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TillpointError } from '../../domain/shared/errors';
import type { Deps } from '../../domain/deps';
import { recordCspReport } from '../../domain/checkout-page/use-cases/record-csp-report';
import { scrubText } from '../../adapters/telemetry/scrub';
import { CSP_REPORT_PATH } from '../checkout-client-config';
import { sendError } from '../errors';
import { findUnstorable } from '../storable-input';
import { utf8BodyText } from '../utf8-input';
import type { CspReport } from '../../domain/checkout-page/entities';
import { RateLimitedError } from '../../domain/api-guards/rules';

/** A report is a few hundred bytes; a batch of the Reporting API a few KB. */
export const CSP_REPORT_BODY_LIMIT = 64 * 1024;
/** Per client address: enough for a page that reports a handful of violations on each load. */
export const CSP_REPORTS_PER_IP_PER_MINUTE = 60;
/** Per account, across its shoppers: bounds what one attacker with many addresses can store. */
export const CSP_REPORTS_PER_ACCOUNT_PER_MINUTE = 600;
/** Violations stored from one Reporting API batch at most. */
const MAX_REPORTS_PER_BATCH = 20;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((value) => scrubText(value).slice(0, max));
const optionalText = (max: number) => text(max).nullable().optional();
const lineNumber = z.number().int().min(0).max(10_000_000).nullable().optional();

/** `report-uri`'s `application/csp-report` body (CSP Level 2/3). Browsers add fields: extra ones are ignored. */
const legacyReport = z.object({
  'csp-report': z.object({
    'document-uri': text(2048),
    'blocked-uri': optionalText(2048),
    'effective-directive': optionalText(200),
    'violated-directive': optionalText(200),
    disposition: optionalText(20),
    'script-sample': optionalText(200),
    'source-file': optionalText(2048),
    'line-number': lineNumber,
  }),
});

/** One report of the Reporting API's `application/reports+json` batch. */
const reportingApiReport = z.object({
  type: z.string().max(100),
  url: optionalText(2048),
  user_agent: optionalText(500),
  body: z
    .object({
      documentURL: optionalText(2048),
      blockedURL: optionalText(2048),
      effectiveDirective: optionalText(200),
      disposition: optionalText(20),
      sample: optionalText(200),
      sourceFile: optionalText(2048),
      lineNumber,
    })
    .nullable()
    .optional(),
});
const reportingApiBatch = z.array(reportingApiReport).max(100);

type ParsedReport = Omit<CspReport, 'id' | 'accountId' | 'checkoutSessionId' | 'receivedAt'>;

/** The checkout session of a reported document URL (`…/c/cs_…`), the only way a report names an account. */
export function sessionOfDocument(url: string): string | null {
  const match = /^(?:https?:\/\/[^/]+)?\/c\/(cs_[A-Za-z0-9]{1,64})(?:[/?#]|$)/.exec(url);
  return match?.[1] ?? null;
}

function invalid(message: string): TillpointError {
  return new TillpointError('parameter_invalid', message);
}

/** The violations of a request body, or a 400 naming what is wrong. */
export function parseCspReports(contentType: string, body: string, userAgent: string | null): ParsedReport[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw invalid('The report is not valid JSON');
  }
  // Parsed here, not by the server, so the server-wide check for unstorable text sees only the raw body.
  if (findUnstorable(json)) throw invalid('The report must not contain the NUL character (U+0000), an unpaired UTF-16 surrogate or deep nesting');
  if (contentType === 'application/reports+json') {
    const batch = reportingApiBatch.safeParse(json);
    if (!batch.success) throw invalid('The body must be a Reporting API batch: an array of at most 100 reports with type, url and body');
    return batch.data
      .filter((report) => report.type === 'csp-violation' && report.body)
      .slice(0, MAX_REPORTS_PER_BATCH)
      .map((report) => ({
        format: 'reports+json' as const,
        directive: report.body!.effectiveDirective ?? 'unknown',
        blockedUrl: report.body!.blockedURL ?? '',
        documentUrl: report.body!.documentURL ?? report.url ?? '',
        disposition: report.body!.disposition ?? 'enforce',
        sample: report.body!.sample ?? null,
        sourceFile: report.body!.sourceFile ?? null,
        lineNumber: report.body!.lineNumber ?? null,
        userAgent: report.user_agent ?? (userAgent ? scrubText(userAgent).slice(0, 500) : null),
      }));
  }
  const legacy = legacyReport.safeParse(json);
  if (!legacy.success) throw invalid('The body must be a CSP report: {"csp-report": {"document-uri": …}}');
  const report = legacy.data['csp-report'];
  return [
    {
      format: 'csp-report',
      directive: report['effective-directive'] ?? report['violated-directive'] ?? 'unknown',
      blockedUrl: report['blocked-uri'] ?? '',
      documentUrl: report['document-uri'],
      disposition: report.disposition ?? 'enforce',
      sample: report['script-sample'] ?? null,
      sourceFile: report['source-file'] ?? null,
      lineNumber: report['line-number'] ?? null,
      userAgent: userAgent ? scrubText(userAgent).slice(0, 500) : null,
    },
  ];
}

/** A per-account count in one-minute windows, in this instance's memory. */
function accountWindow(limit: number) {
  const counts = new Map<string, { minute: number; count: number }>();
  return (accountId: string, now: Date): boolean => {
    const minute = Math.floor(now.getTime() / 60_000);
    if (counts.size > 10_000) for (const [key, entry] of counts) if (entry.minute < minute) counts.delete(key);
    const entry = counts.get(accountId);
    if (!entry || entry.minute !== minute) {
      counts.set(accountId, { minute, count: 1 });
      return true;
    }
    entry.count++;
    return entry.count <= limit;
  };
}

/**
 * `POST /csp-reports`: where the checkout page's CSP sends violations (report-to and report-uri).
 * Public, as browsers send reports without credentials; so it is bounded in size, rate limited per
 * address and per account, stores only reports about a real checkout session, and scrubs every
 * field with the error reporter's scrubber before it is stored.
 */
export async function cspReportRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
  // Errors thrown by the rate limiter and the body parser get the catalogue's envelope here too.
  app.setErrorHandler((error: unknown, request, reply) => {
    const code = (error as { code?: string }).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, invalid('The report is larger than 64 KB'));
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(request, reply, invalid('Send the report as application/csp-report or application/reports+json'));
    }
    return sendError(request, reply, error);
  });
  app.addContentTypeParser(['application/csp-report', 'application/reports+json'], { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, utf8BodyText(body as Buffer)),
  );
  const withinAccountLimit = accountWindow(CSP_REPORTS_PER_ACCOUNT_PER_MINUTE);

  app.post(
    CSP_REPORT_PATH,
    {
      bodyLimit: CSP_REPORT_BODY_LIMIT,
      config: { rateLimit: { max: CSP_REPORTS_PER_IP_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request: FastifyRequest) => request.ip } },
    },
    async (request, reply) => {
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const raw = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null);
      const userAgent = typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null;
      const reports = parseCspReports(contentType, raw, userAgent);
      for (const report of reports) {
        const checkoutSessionId = sessionOfDocument(report.documentUrl);
        if (!checkoutSessionId) continue;
        // Attribute first (one read), then count against that account; an unknown session stores nothing.
        const stored = await recordCspReport(deps, {
          checkoutSessionId,
          report,
          admit: (accountId) => withinAccountLimit(accountId, deps.clock.now()),
        });
        if (stored === 'rate_limited') throw new RateLimitedError(60);
      }
      return reply.status(204).send();
    },
  );
}
