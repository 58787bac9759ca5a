import { resourceMissing } from '../../shared/errors';
import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import type { Experiment } from '../entities';

export async function getExperiment(deps: Deps, options: { scope: Scope; id: string }): Promise<Experiment> {
  const found = await deps.store.read((reader) => reader.experiments.get(options.scope, options.id));
  if (!found) throw resourceMissing('experiment', options.id);
  return found;
}
