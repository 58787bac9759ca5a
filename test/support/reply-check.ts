import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { errorSchemasByStatus } from '../../src/http/response-schemas';

/** A reply that did not match the schema its route's contract documents. */
export interface ReplyProblem {
  route: string;
  status: number;
  issues: string;
}

/**
 * Parses every JSON answer of a public route with the schema the OpenAPI document shows for it
 * (the contract's `response`, or the error envelope of that status), so the document and the
 * replies cannot drift. Problems are collected, not thrown: the test asserts there are none.
 */
export function checkRepliesAgainstContracts(app: FastifyInstance): ReplyProblem[] {
  const problems: ReplyProblem[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const contract = request.routeOptions.config?.contract;
    if (!contract || contract.internal || request.url.startsWith('/dashboard/') || typeof payload !== 'string') return payload;
    const schema: z.ZodType | undefined = reply.statusCode < 400 ? contract.response : errorSchemasByStatus.get(reply.statusCode);
    const route = `${contract.method} ${contract.url}`;
    if (!schema) {
      problems.push({ route, status: reply.statusCode, issues: 'no schema documents this status' });
      return payload;
    }
    const result = schema.safeParse(JSON.parse(payload));
    if (!result.success) problems.push({ route, status: reply.statusCode, issues: JSON.stringify(result.error.issues) });
    return payload;
  });
  return problems;
}
