import type { Experiment } from '../entities';
import { resourceMissing } from '../errors';
import type { Deps, Scope } from '../ports';

export async function getExperiment(deps: Deps, options: { scope: Scope; id: string }): Promise<Experiment> {
  const found = await deps.store.transaction((tx) => tx.experiments.get(options.scope, options.id));
  if (!found) throw resourceMissing('experiment', options.id);
  return found;
}
