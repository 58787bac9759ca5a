import { newId } from '../ids';
import type { Deps } from '../ports';
import type { ApiRequestRecord } from '../team-entities';

/** How many requests the request log keeps per account and mode; older ones are dropped as new ones arrive. */
export const API_REQUEST_LOG_SIZE = 1000;

/** Notes a merchant API call in the request log: method, path, status, error code; never a body. */
export async function recordApiRequest(deps: Deps, options: Omit<ApiRequestRecord, 'id' | 'at'>): Promise<void> {
  const record: ApiRequestRecord = { id: newId('req_log', 20), at: deps.clock.now(), ...options };
  await deps.store.transaction((tx) => tx.apiRequests.insert(record, API_REQUEST_LOG_SIZE));
}
