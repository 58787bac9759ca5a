import { auditWrite } from '../../team/audit';
import { TillpointError } from '../../shared/errors';
import { experimentSurfaces, isExperimentSurface } from '../flag-evaluation';
import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import { ExperimentKeyBusyError } from '../ports';
import type { ExperimentVariant, Experiment } from '../entities';
import type { ExperimentPlanInput } from '../rules';
import { checkExperimentPlan, keyBusy } from '../rules';

/** Creates an experiment on a checkout-page surface, as a draft or started at once. */
export async function createExperiment(
  deps: Deps,
  options: ExperimentPlanInput & {
    scope: Scope;
    key: string;
    variants: ExperimentVariant[];
    description?: string | null;
    status?: 'draft' | 'running';
    actor: Actor | null;
  },
): Promise<Experiment> {
  if (!isExperimentSurface(options.key)) {
    throw new TillpointError('parameter_invalid', `Experiments run on: ${Object.keys(experimentSurfaces).join(', ')}`, { param: 'key' });
  }
  const plan = checkExperimentPlan(options.key, options);
  const now = deps.clock.now();
  const running = options.status === 'running';
  const experiment: Experiment = {
    id: newId('exp'),
    ...options.scope,
    key: options.key,
    description: options.description ?? null,
    status: running ? 'running' : 'draft',
    ...plan,
    startedAt: running ? now : null,
    stoppedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.store.transaction(async (tx) => {
      await tx.experiments.insert(experiment);
      await auditWrite(tx, { scope: options.scope, actor: options.actor, action: 'experiment.create', target: experiment.id, at: now });
    });
  } catch (error) {
    if (error instanceof ExperimentKeyBusyError) throw keyBusy(options.key);
    throw error;
  }
  return experiment;
}
