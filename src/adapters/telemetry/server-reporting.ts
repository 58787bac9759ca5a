import type { SentryConfig } from '../../runtime/config';
import { scrubbingTransport, sentryBaseOptions } from './sentry-privacy';

export interface ReportContext {
  tags?: Record<string, string>;
  level?: 'error' | 'warning';
}

/** Where the server sends what went wrong: a Sentry-protocol server, or nowhere. */
export interface ErrorReporter {
  captureException(error: unknown, context?: ReportContext): void;
  captureMessage(message: string, context?: ReportContext): void;
  flush(timeoutMs: number): Promise<void>;
}

export const noErrorReporter: ErrorReporter = {
  captureException: () => undefined,
  captureMessage: () => undefined,
  flush: async () => undefined,
};

/**
 * Starts @sentry/node when SENTRY_DSN is set. The SDK is imported only then, so an install without
 * error reporting never loads it. Everything it sends passes the shared scrubber twice: per event
 * and breadcrumb, and again per envelope at the transport. Request bodies are never attached.
 * Unhandled rejections and uncaught exceptions are reported by the SDK's default integrations;
 * release-health sessions are recorded per request.
 */
export async function startServerReporting(config: SentryConfig): Promise<ErrorReporter> {
  if (!config.dsn) return noErrorReporter;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    ...sentryBaseOptions({ ...config, dsn: config.dsn }),
    integrations: (defaults) => [
      // Our error handler reports 5xx answers itself, tagged with the session; the SDK's own
      // Fastify capture would send the same error a second time without them.
      ...defaults.filter((integration) => !/fastify/i.test(integration.name)),
      Sentry.httpIntegration({ maxRequestBodySize: 'none', sessions: true, spans: false }),
    ],
    transport: scrubbingTransport(Sentry.makeNodeTransport),
  });
  return {
    captureException: (error, context = {}) => {
      Sentry.captureException(error, { tags: context.tags, level: context.level ?? 'error' });
    },
    captureMessage: (message, context = {}) => {
      Sentry.captureMessage(message, { tags: context.tags, level: context.level ?? 'error' });
    },
    flush: async (timeoutMs) => {
      await Sentry.flush(timeoutMs);
    },
  };
}
