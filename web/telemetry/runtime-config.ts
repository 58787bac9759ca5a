/**
 * The configuration the server gives the page at run time (with the page's data), so one build
 * serves every install.
 */
export interface RuntimeConfig {
  sentry: { dsn: string; environment: string; release: string; sampleRate: number } | null;
}
