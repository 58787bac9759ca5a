import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { FlagEvaluation } from '../../domain/flags/flag-evaluation';
import type { Deps } from '../../domain/deps';
import { authorizeFlagReader } from '../../domain/flags/use-cases/authorize-flag-reader';
import { evaluateFlags } from '../../domain/flags/use-cases/evaluate-flags';
import { defineRoute } from '../define-route';

const tag = 'Flags (OFREP)';

/** How many attributes an evaluation context may have: a targeting key and a few attributes in practice. */
export const MAX_CONTEXT_KEYS = 100;

/**
 * OFREP's request body: `{ context }` and nothing else (an unknown field is refused by name, as on
 * every endpoint). The context's own attributes are free, up to MAX_CONTEXT_KEYS; its shape is
 * checked below, in OFREP's error format.
 */
const evaluationBody = z.strictObject({
  context: z
    .unknown()
    .optional()
    .refine(
      (context) => context === null || typeof context !== 'object' || Object.keys(context).length <= MAX_CONTEXT_KEYS,
      `must have at most ${MAX_CONTEXT_KEYS} keys`,
    ),
});
const keyParams = z.strictObject({ key: z.string().max(200) });

type Failure = { status: 400 | 401; body: { errorCode: string; errorDetails: string } };

/**
 * Who is asking and for which unit. OFREP defines its own error bodies, so a bad context answers
 * `{errorCode, errorDetails}` rather than our envelope.
 */
async function readerScope(deps: Deps, authorization: string | undefined, context: unknown) {
  if (context !== undefined && (context === null || typeof context !== 'object' || Array.isArray(context))) {
    return { failure: { status: 400, body: { errorCode: 'INVALID_CONTEXT', errorDetails: 'context must be an object' } } as Failure };
  }
  const raw = (context as Record<string, unknown> | undefined)?.targetingKey;
  if (raw !== undefined && (typeof raw !== 'string' || raw.length === 0 || raw.length > 256)) {
    return { failure: { status: 400, body: { errorCode: 'INVALID_CONTEXT', errorDetails: 'targetingKey must be a non-empty string' } } as Failure };
  }
  const targetingKey = (raw as string | undefined) ?? null;
  const scope = await authorizeFlagReader(deps, { authorization, targetingKey });
  if (scope) return { scope, targetingKey };
  if (!targetingKey) {
    return {
      failure: {
        status: 400,
        body: { errorCode: 'TARGETING_KEY_MISSING', errorDetails: 'Send the checkout session id as targetingKey, or an API key' },
      } as Failure,
    };
  }
  return { failure: { status: 400, body: { errorCode: 'INVALID_CONTEXT', errorDetails: 'targetingKey is not a checkout session' } } as Failure };
}

/** An evaluation in OFREP's success or failure shape. */
function ofrepShape(evaluation: FlagEvaluation) {
  if ('errorCode' in evaluation) return evaluation;
  return { key: evaluation.key, value: evaluation.value, reason: evaluation.reason, variant: evaluation.variant, metadata: evaluation.metadata };
}

function fail(reply: FastifyReply, failure: Failure) {
  return reply.status(failure.status).send(failure.body);
}

/**
 * OFREP (the OpenFeature Remote Evaluation Protocol): bulk evaluation for the checkout page's
 * OpenFeature web SDK, single evaluation for server-side providers.
 */
export async function ofrepRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    { method: 'POST', url: '/ofrep/v1/evaluate/flags', tag, summary: 'OFREP bulk evaluation', body: evaluationBody, internal: true },
    async ({ body, request, reply }) => {
      reply.header('cache-control', 'no-store');
      const read = await readerScope(deps, request.headers.authorization, body.context);
      if ('failure' in read) return fail(reply, read.failure!);
      const flags = (await evaluateFlags(deps, { scope: read.scope, targetingKey: read.targetingKey })).map(ofrepShape);
      const payload = JSON.stringify({ flags });
      const etag = `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json').send(payload);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/ofrep/v1/evaluate/flags/:key',
      tag,
      summary: 'OFREP single flag evaluation',
      params: keyParams,
      body: evaluationBody,
      internal: true,
    },
    async ({ params, body, request, reply }) => {
      reply.header('cache-control', 'no-store');
      const read = await readerScope(deps, request.headers.authorization, body.context);
      if ('failure' in read) return fail(reply, { ...read.failure!, body: { key: params.key, ...read.failure!.body } } as Failure);
      const [evaluation] = await evaluateFlags(deps, { scope: read.scope, targetingKey: read.targetingKey, key: params.key });
      if ('errorCode' in evaluation!) {
        return reply.status(evaluation.errorCode === 'FLAG_NOT_FOUND' ? 404 : 400).send(evaluation);
      }
      // Experiments assign per unit; plain flags may be cached by a server provider.
      return { ...ofrepShape(evaluation!), cacheable: evaluation!.reason !== 'SPLIT' };
    },
  );
}
