/**
 * The configuration the server writes into the page at run time (an inert JSON script element), so
 * one build serves every install. Shared by the checkout page and, later, the dashboard.
 */
export interface RuntimeConfig {
  sentry: { dsn: string; environment: string; release: string; sampleRate: number } | null;
  /** Base URL of the OFREP flag service; '' is the page's own server. */
  ofrepUrl: string;
}

export function readRuntimeConfig(doc: Document = document): RuntimeConfig {
  const text = doc.getElementById('tillpoint-config')?.textContent;
  try {
    const parsed = text ? (JSON.parse(text) as Partial<RuntimeConfig>) : {};
    return { sentry: parsed.sentry ?? null, ofrepUrl: parsed.ofrepUrl ?? '' };
  } catch {
    return { sentry: null, ofrepUrl: '' };
  }
}
