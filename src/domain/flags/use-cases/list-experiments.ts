import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Experiment } from '../entities';

/** Experiments of an account and mode, newest first, one page at a time. */
export async function listExperiments(
  deps: Deps,
  options: { scope: Scope; limit: number; startingAfter?: string },
): Promise<{ data: Experiment[]; hasMore: boolean }> {
  const rows = await deps.store.readReplica((reader) =>
    reader.experiments.list(options.scope, { limit: options.limit + 1, startingAfter: options.startingAfter }),
  );
  return { data: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
}
