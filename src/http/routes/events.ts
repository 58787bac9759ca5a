import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { getEvent } from '../../domain/webhooks/use-cases/get-event';
import { listEvents } from '../../domain/webhooks/use-cases/list-events';
import { readNewEvents, startEventTail } from '../../domain/webhooks/use-cases/read-new-events';
import { defineRoute } from '../define-route';
import { eventListSchema, eventSchema } from '../response-schemas';
import { listEventsQuery } from '../lifecycle-schemas';
import { scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams, objectId } from '../schemas';
import { eventView } from '../views/event';

const tag = 'Events';

const fromUnix = (seconds: number | undefined) => (seconds === undefined ? undefined : new Date(seconds * 1000));

/** How often an open event stream looks for new events, and how often it says it is still there. */
export const EVENT_STREAM_POLL_MS = 500;
const HEARTBEAT_MS = 15_000;

const streamQuery = z.strictObject({});
const lastEventId = objectId.optional();

/** `/v1/events`. */
export async function eventRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  // Open streams never end by themselves: end them when the server closes, so it can.
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
  });

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/events/stream',
      resource: 'events',
      tag,
      summary: "Receive the account's events as they happen (server-sent events)",
      description:
        'Each event is one `data:` line holding the event as JSON, with its id as the `id:` field. The stream starts now; ' +
        'reconnect with `Last-Event-ID` to resume after the last event received. Events come from the database, so every ' +
        'instance of a cluster sees all of them. `tillpoint listen` uses this to forward events to a local URL.',
      query: streamQuery,
      response: eventSchema,
      stream: true,
    },
    async ({ request, reply }) => {
      const scope = scopeOf(request);
      const resumeId = lastEventId.safeParse(request.headers['last-event-id']);
      const after = resumeId.success && resumeId.data ? await getEvent(deps, { scope, id: resumeId.data }) : undefined;
      const tail = startEventTail(deps.clock.now(), after);

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
        'request-id': request.id,
      });
      raw.write('retry: 2000\n: connected\n\n');

      let open = true;
      let timer: NodeJS.Timeout | undefined;
      let lastWrite = Date.now();
      const end = () => {
        open = false;
        clearTimeout(timer);
        openStreams.delete(end);
        if (!raw.writableEnded) raw.end();
      };
      openStreams.add(end);
      raw.once('close', end);
      const tick = async () => {
        try {
          for (const event of await readNewEvents(deps, { scope, tail })) {
            if (!open) return;
            raw.write(`id: ${event.id}\ndata: ${JSON.stringify(eventView(event))}\n\n`);
            lastWrite = Date.now();
          }
          if (Date.now() - lastWrite > HEARTBEAT_MS) {
            raw.write(': ping\n\n');
            lastWrite = Date.now();
          }
        } catch (error) {
          // A database hiccup: the next tick tries again from the same position.
          request.log.warn({ err: error }, 'event stream read failed');
        }
        if (open) timer = setTimeout(tick, EVENT_STREAM_POLL_MS);
      };
      await tick();
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/events',
      resource: 'events',
      tag,
      summary: 'List events, newest first, by type and time',
      query: listEventsQuery,
      response: eventListSchema,
    },
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
    { method: 'GET', url: '/v1/events/:id', resource: 'events', tag, summary: 'Retrieve an event', params: idParams, response: eventSchema },
    async ({ params, request }) => eventView(await getEvent(deps, { scope: scopeOf(request), id: params.id })),
  );
}
