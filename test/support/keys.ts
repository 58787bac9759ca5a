import { issueApiKey } from '../../src/domain/team/use-cases/create-account';
import type { IntegrationContext } from './integration';

/** A live secret key for the context's account (live mode: 100 requests/s, https-only webhooks). */
export function liveKey(ctx: IntegrationContext): Promise<string> {
  return ctx.h.tillpoint.deps.store.transaction((tx) => issueApiKey(tx, { accountId: ctx.accountId, mode: 'live', kind: 'secret', at: ctx.h.clock.now() }));
}
