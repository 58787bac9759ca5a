import { auditWrite } from '../../team/audit';
import { resourceMissing, TillpointError } from '../../shared/errors';
import type { ExperimentSurface } from '../flag-evaluation';
import type { Deps } from '../../deps';
import { canTransition, experimentTransitions } from '../../payments/state-machine';
import type { Actor } from '../../team/entities';
import type { Scope } from '../../shared/scope';
import { ExperimentKeyBusyError } from '../ports';
import type { ExperimentVariant, Experiment } from '../entities';
import type { ExperimentPlanInput } from '../rules';
import { checkExperimentPlan, keyBusy } from '../rules';

/**
 * Starts, stops or edits an experiment. Variants, weights, control and sample size are fixed once
 * it has started: changing them would move sessions between variants or move the goalposts.
 * Audited as `experiment.start` / `experiment.stop` / `experiment.draft` when a status is asked,
 * else `experiment.update`.
 */
export async function updateExperiment(
  deps: Deps,
  options: ExperimentPlanInput & { scope: Scope; id: string; status?: Experiment['status']; description?: string | null; actor: Actor | null },
): Promise<Experiment> {
  try {
    return await deps.store.transaction(async (tx) => {
      const current = await tx.experiments.get(options.scope, options.id, { forUpdate: true });
      if (!current) throw resourceMissing('experiment', options.id);
      const replanned =
        options.variants !== undefined ||
        options.control !== undefined ||
        options.plannedSampleSize !== undefined ||
        options.baselineConversionRate !== undefined ||
        options.minimumDetectableEffect !== undefined;
      let next: Experiment = { ...current, updatedAt: deps.clock.now() };
      if (replanned) {
        if (current.status !== 'draft') {
          throw new TillpointError('parameter_invalid', 'Variants, control and sample size cannot change once an experiment has started', {
            param: options.variants !== undefined ? 'variants' : 'planned_sample_size',
          });
        }
        const sizing =
          options.plannedSampleSize !== undefined || options.baselineConversionRate !== undefined || options.minimumDetectableEffect !== undefined
            ? options
            : { plannedSampleSize: current.plannedSampleSize, baselineConversionRate: undefined, minimumDetectableEffect: undefined };
        next = {
          ...next,
          ...checkExperimentPlan(
            current.key as ExperimentSurface,
            {
              variants: options.variants ?? current.variants,
              control: options.control ?? (options.variants ? undefined : current.control),
              ...sizing,
            } as ExperimentPlanInput & { variants: ExperimentVariant[] },
          ),
        };
      }
      if (options.description !== undefined) next.description = options.description;
      if (options.status !== undefined && options.status !== current.status) {
        if (!canTransition(experimentTransitions, current.status, options.status)) {
          throw new TillpointError('parameter_invalid', `An experiment cannot go from ${current.status} to ${options.status}`, { param: 'status' });
        }
        next.status = options.status;
        if (options.status === 'running') next.startedAt = next.updatedAt;
        if (options.status === 'stopped') next.stoppedAt = next.updatedAt;
      }
      await tx.experiments.update(next);
      await auditWrite(tx, { scope: options.scope, actor: options.actor, action: experimentAction(options.status), target: next.id, at: next.updatedAt });
      return next;
    });
  } catch (error) {
    if (error instanceof ExperimentKeyBusyError) throw keyBusy(error.key);
    throw error;
  }
}

const statusActions: Record<Experiment['status'], string> = { running: 'experiment.start', stopped: 'experiment.stop', draft: 'experiment.draft' };

function experimentAction(status: Experiment['status'] | undefined): string {
  return status ? statusActions[status] : 'experiment.update';
}
