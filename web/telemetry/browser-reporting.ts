/** Where and how a page reports its errors, as the server hands it over at run time; null: reporting off. */
export type BrowserReportingConfig = { dsn: string; environment: string; release: string; sampleRate: number } | null;

export interface BrowserReporter {
  capture(error: unknown, context?: { tags?: Record<string, string> }): void;
  setTag(key: string, value: string): void;
}

type Pending = { error: unknown; tags?: Record<string, string> };

/**
 * Error reporting for Tillpoint's web apps through @sentry/react, off unless the server handed the
 * page a DSN. The SDK (~150 KB gzipped) and the scrubber are imported only then, and only once the
 * page is idle or an error happens, so they never delay the moment a shopper can type. Until they
 * arrive, errors are kept and replayed. Every event, breadcrumb and envelope passes the shared
 * scrubber before it leaves the browser.
 */
export function startBrowserReporting(config: BrowserReportingConfig, options: { tags?: Record<string, string> } = {}): BrowserReporter {
  if (!config) return { capture: () => undefined, setTag: () => undefined };
  const tags: Record<string, string> = { ...options.tags };
  const pending: Pending[] = [];
  let sentry: typeof import('@sentry/react') | null = null;

  let loading: Promise<void> | null = null;
  const start = () => {
    if (!loading) loading = load().catch(() => undefined);
  };
  const onError = (event: ErrorEvent) => {
    pending.push({ error: event.error ?? event.message });
    start();
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    pending.push({ error: event.reason });
    start();
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);

  const load = async () => {
    const [Sentry, { scrubbingTransport, sentryBaseOptions }] = await Promise.all([
      import('@sentry/react'),
      import('../../src/adapters/telemetry/sentry-privacy'),
    ]);
    Sentry.init({
      ...sentryBaseOptions(config),
      transport: scrubbingTransport(Sentry.makeFetchTransport),
    });
    Sentry.setTags(tags);
    // The SDK's own global handlers are in place now.
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
    sentry = Sentry;
    for (const item of pending.splice(0)) Sentry.captureException(item.error, { tags: item.tags });
  };

  const whenIdle = () => {
    const idle = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => void }).requestIdleCallback;
    if (idle) idle(start, { timeout: 3000 });
    else setTimeout(start, 1);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });

  return {
    capture(error, context = {}) {
      if (sentry) sentry.captureException(error, { tags: context.tags });
      else {
        pending.push({ error, tags: context.tags });
        start();
      }
    },
    setTag(key, value) {
      tags[key] = value;
      sentry?.setTag(key, value);
    },
  };
}
