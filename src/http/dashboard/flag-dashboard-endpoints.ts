import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { createExperiment } from '../../domain/flags/use-cases/create-experiment';
import { getExperimentResults } from '../../domain/flags/use-cases/get-experiment-results';
import { listExperiments } from '../../domain/flags/use-cases/list-experiments';
import { listFlags } from '../../domain/flags/use-cases/list-flags';
import { updateExperiment } from '../../domain/flags/use-cases/update-experiment';
import { updateFlag } from '../../domain/flags/use-cases/update-flag';
import { createExperimentBody, listExperimentsQuery, updateExperimentBody, updateFlagBody } from '../flag-schemas';
import { experimentInput } from '../routes/experiments';
import { experimentResultsView, experimentView } from '../views/experiment';
import { flagView } from '../views/flag';
import { accountParam, modeEndpoint, modeParam, type DashboardEndpoint } from './dashboard-route';
import { base, objectParams, scopeParams } from './mode-endpoints';
import { dashboardExperimentListSchema, dashboardFlagListSchema } from './response-schemas';
import { experimentResultsSchema } from '../response-schemas';

const tag = 'Dashboard: flags and experiments';
const flagParams = z.strictObject({ ...accountParam, ...modeParam, key: z.string().regex(/^[A-Za-z0-9_]{1,64}$/) });

/** Kill switches and flags, experiments and their results: the merchant API's use cases. */
export function flagDashboardEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/flags`,
        response: dashboardFlagListSchema,
        tag,
        summary: 'Flags (built-in kill switches with their current value)',
        params: scopeParams,
        permission: 'flags.read',
      },
      async ({ scope }) => ({ object: 'list', has_more: false, data: (await listFlags(deps, { scope })).map((f) => flagView(f.key, f.stored)) }),
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/flags/:key`,
        tag,
        summary: "Change a flag's value; it takes effect at once",
        params: flagParams,
        body: updateFlagBody,
        permission: 'flags.manage',
      },
      async ({ params, body, scope, member }) => {
        const flag = await updateFlag(deps, { scope, actor: member.actor, key: params.key, value: body.value, description: body.description });
        return flagView(flag.key, flag);
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/experiments`,
        response: dashboardExperimentListSchema,
        tag,
        summary: 'Experiments, newest first',
        params: scopeParams,
        query: listExperimentsQuery,
        permission: 'flags.read',
      },
      async ({ query, scope }) => {
        const page = await listExperiments(deps, { scope, limit: query.limit, startingAfter: query.starting_after });
        return { object: 'list', has_more: page.hasMore, data: page.data.map(experimentView) };
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/experiments`,
        tag,
        summary: 'Create an experiment (draft, or running at once)',
        params: scopeParams,
        body: createExperimentBody,
        permission: 'flags.manage',
        status: 201,
      },
      async ({ body, scope, member }) => {
        const experiment = await createExperiment(deps, { scope, actor: member.actor, key: body.key, ...experimentInput(body), variants: body.variants });
        return experimentView(experiment);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/experiments/:id`,
        tag,
        summary: 'Start, stop or edit an experiment',
        params: objectParams,
        body: updateExperimentBody,
        permission: 'flags.manage',
      },
      async ({ params, body, scope, member }) => {
        const experiment = await updateExperiment(deps, { scope, actor: member.actor, id: params.id, ...experimentInput(body) });
        return experimentView(experiment);
      },
    ),

    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/experiments/:id/results`,
        response: experimentResultsSchema,
        tag,
        summary: 'Per variant: exposed, conversions, rate and difference with intervals, and the verdict',
        params: objectParams,
        permission: 'flags.read',
      },
      async ({ params, scope }) => {
        const results = await getExperimentResults(deps, { scope, id: params.id });
        return experimentResultsView(results.experiment, results);
      },
    ),
  ];
}
