import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createExperiment } from '../../domain/flags/use-cases/create-experiment';
import { getExperiment } from '../../domain/flags/use-cases/get-experiment';
import { getExperimentResults } from '../../domain/flags/use-cases/get-experiment-results';
import { listExperiments } from '../../domain/flags/use-cases/list-experiments';
import { updateExperiment } from '../../domain/flags/use-cases/update-experiment';
import { defineRoute } from '../define-route';
import { experimentListSchema, experimentResultsSchema, experimentSchema } from '../response-schemas';
import { createExperimentBody, listExperimentsQuery, updateExperimentBody } from '../flag-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { idParams } from '../schemas';
import { experimentResultsView, experimentView } from '../views/experiment';

const tag = 'Experiments';

/** The body's fields in the use cases' terms (create and update take the same ones). */
export const experimentInput = <S extends 'draft' | 'running' | 'stopped'>(body: {
  variants?: Array<{ key: string; weight: number }>;
  description?: string | null;
  status?: S;
  control?: string;
  planned_sample_size?: number;
  baseline_conversion_rate?: number;
  minimum_detectable_effect?: number;
}) => ({
  variants: body.variants,
  description: body.description,
  status: body.status,
  control: body.control,
  plannedSampleSize: body.planned_sample_size,
  baselineConversionRate: body.baseline_conversion_rate,
  minimumDetectableEffect: body.minimum_detectable_effect,
});

/** `/v1/experiments`: A/B tests on the checkout page and their results. */
export async function experimentRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/experiments',
      resource: 'experiments',
      tag,
      summary: 'Create an experiment (draft, or running at once)',
      body: createExperimentBody,
      response: experimentSchema,
    },
    async ({ body, request }) =>
      experimentView(
        await createExperiment(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          key: body.key,
          ...experimentInput(body),
          variants: body.variants,
        }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/experiments',
      resource: 'experiments',
      tag,
      summary: 'List experiments, newest first',
      query: listExperimentsQuery,
      response: experimentListSchema,
    },
    async ({ query, request }) => {
      const page = await listExperiments(deps, { scope: scopeOf(request), limit: query.limit, startingAfter: query.starting_after });
      return { object: 'list', url: '/v1/experiments', has_more: page.hasMore, data: page.data.map(experimentView) };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/experiments/:id',
      resource: 'experiments',
      tag,
      summary: 'Retrieve an experiment',
      params: idParams,
      response: experimentSchema,
    },
    async ({ params, request }) => experimentView(await getExperiment(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/experiments/:id',
      resource: 'experiments',
      tag,
      summary: 'Start, stop or edit an experiment',
      params: idParams,
      body: updateExperimentBody,
      response: experimentSchema,
    },
    async ({ params, body, request }) =>
      experimentView(
        await updateExperiment(deps, {
          scope: scopeOf(request),
          actor: keyActorOf(request),
          id: params.id,
          ...experimentInput(body),
        }),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/experiments/:id/results',
      resource: 'experiments',
      tag,
      summary: 'Exposures, conversions, intervals and the verdict',
      params: idParams,
      response: experimentResultsSchema,
    },
    async ({ params, request }) => {
      const results = await getExperimentResults(deps, { scope: scopeOf(request), id: params.id });
      return experimentResultsView(results.experiment, results);
    },
  );
}
