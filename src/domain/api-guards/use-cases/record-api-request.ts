import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { ApiRequestRecord } from '../../team/entities';

/** How many requests the request log keeps per account and mode; older ones are dropped as new ones arrive. */
export const API_REQUEST_LOG_SIZE = 1000;

/** A merchant API call as the request log notes it: method, path, status, error code; never a body. */
export function apiRequestRecord(deps: Pick<Deps, 'clock'>, options: Omit<ApiRequestRecord, 'id' | 'at'>): ApiRequestRecord {
  return { id: newId('req_log', 20), at: deps.clock.now(), ...options };
}

/** Writes a batch of request-log records in one statement, keeping the newest of each scope. */
export async function recordApiRequests(deps: Pick<Deps, 'store'>, records: ApiRequestRecord[]): Promise<void> {
  if (records.length === 0) return;
  await deps.store.once((db) => db.apiRequests.insertMany(records, API_REQUEST_LOG_SIZE));
}
