import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createFlag } from '../../domain/flags/use-cases/create-flag';
import { getFlag } from '../../domain/flags/use-cases/get-flag';
import { listFlags } from '../../domain/flags/use-cases/list-flags';
import { updateFlag } from '../../domain/flags/use-cases/update-flag';
import { defineRoute } from '../define-route';
import { flagListSchema, flagSchema } from '../response-schemas';
import { createFlagBody, flagKeyParams, updateFlagBody } from '../flag-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { flagView } from '../views/flag';

const tag = 'Flags';

/** `/v1/flags`: kill switches and custom flags of the key's account and mode. */
export async function flagRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    { method: 'GET', url: '/v1/flags', resource: 'flags', tag, summary: 'List flags (built-in ones with their current value)', response: flagListSchema },
    async ({ request }) => {
      const flags = await listFlags(deps, { scope: scopeOf(request) });
      return { object: 'list', url: '/v1/flags', has_more: false, data: flags.map((f) => flagView(f.key, f.stored)) };
    },
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/flags/:key', resource: 'flags', tag, summary: 'Retrieve a flag', params: flagKeyParams, response: flagSchema },
    async ({ params, request }) => {
      const flag = await getFlag(deps, { scope: scopeOf(request), key: params.key });
      return flagView(flag.key, flag.stored);
    },
  );

  defineRoute(
    app,
    { method: 'POST', url: '/v1/flags', resource: 'flags', tag, summary: 'Create a custom flag', body: createFlagBody, response: flagSchema },
    async ({ body, request }) => {
      const flag = await createFlag(deps, {
        scope: scopeOf(request),
        actor: keyActorOf(request),
        key: body.key,
        value: body.value,
        description: body.description,
      });
      return flagView(flag.key, flag);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/flags/:key',
      resource: 'flags',
      tag,
      summary: "Change a flag's value (takes effect at once, no deploy)",
      params: flagKeyParams,
      body: updateFlagBody,
      response: flagSchema,
    },
    async ({ params, body, request }) => {
      const flag = await updateFlag(deps, {
        scope: scopeOf(request),
        actor: keyActorOf(request),
        key: params.key,
        value: body.value,
        description: body.description,
      });
      return flagView(flag.key, flag);
    },
  );
}
