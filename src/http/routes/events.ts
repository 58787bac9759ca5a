import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/ports';
import { getEvent } from '../../domain/use-cases/get-event';
import { listEvents } from '../../domain/use-cases/list-events';
import { eventView } from '../../domain/views';
import { defineRoute } from '../define-route';
import { listEventsQuery } from '../lifecycle-schemas';
import { scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';

const tag = 'Events';

const fromUnix = (seconds: number | undefined) => (seconds === undefined ? undefined : new Date(seconds * 1000));

/** `/v1/events`. */
export async function eventRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    { method: 'GET', url: '/v1/events', tag, summary: 'List events, newest first, by type and time', query: listEventsQuery },
    async ({ query, request }) =>
      listBody(
        '/v1/events',
        await listEvents(deps, {
          scope: scopeOf(request),
          page: pageRequest(query),
          filter: {
            type: query.type,
            createdGte: fromUnix(query['created[gte]']),
            // Inclusive of the whole second, since events keep milliseconds.
            createdLte: query['created[lte]'] === undefined ? undefined : new Date(query['created[lte]'] * 1000 + 999),
          },
        }),
        eventView,
      ),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/events/:id', tag, summary: 'Retrieve an event', params: idParams },
    async ({ params, request }) => eventView(await getEvent(deps, { scope: scopeOf(request), id: params.id })),
  );
}
