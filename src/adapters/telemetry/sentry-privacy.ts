import { scrubEnvelope, scrubValue } from './scrub';

/**
 * The privacy settings every Tillpoint Sentry SDK starts with, server and browser alike: collect
 * nothing a shopper typed, scrub every event and breadcrumb, keep client reports on.
 */
export const sentryPrivacyOptions = {
  sendClientReports: true,
  dataCollection: { userInfo: false, cookies: false, httpBodies: [] as never[], stackFrameVariables: false },
  beforeSend: <E>(event: E): E => scrubValue(event),
  beforeBreadcrumb: <B>(breadcrumb: B): B => scrubValue(breadcrumb),
};

/** Wraps an SDK transport so every envelope is scrubbed once more just before it is sent. */
export function scrubbingTransport<O, T extends { send(envelope: unknown): unknown }>(make: (options: O) => T) {
  return (options: O): T => {
    const transport = make(options);
    return { ...transport, send: (envelope: unknown) => transport.send(scrubEnvelope(envelope)) };
  };
}

/** Where and as what a Tillpoint SDK reports, with the privacy settings above. */
export function sentryBaseOptions(config: { dsn: string; release: string; environment: string; sampleRate: number }) {
  return { dsn: config.dsn, release: config.release, environment: config.environment, sampleRate: config.sampleRate, ...sentryPrivacyOptions };
}
