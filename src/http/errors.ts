import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TillpointError } from '../domain/shared/errors';
import { checkoutSessionOfUrl, isOurSideDecline } from '../telemetry/reporting-policy';
import type { ErrorReporter } from '../telemetry/server-reporting';

/** The error envelope of design.md §8. */
export function errorBody(error: TillpointError, requestId: string) {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
      ...(error.declineCode ? { decline_code: error.declineCode } : {}),
      request_id: requestId,
    },
  };
}

/** `['line_items', 0, 'quantity']` → `line_items[0][quantity]`, the way the API names parameters. */
export function paramName(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (i === 0 ? String(part) : `[${String(part)}]`)).join('');
}

/** The first problem zod found, as one of our codes, naming the parameter. */
export function fromZodError(error: z.ZodError): TillpointError {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const param = paramName([...issue.path, issue.keys[0]!]);
    return new TillpointError('parameter_unknown', `Received unknown parameter: ${param}`, { param });
  }
  const param = paramName(issue.path);
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return new TillpointError('parameter_missing', `Missing required parameter: ${param}`, { param });
  }
  if (!param) return new TillpointError('parameter_invalid', 'The request body must be a JSON object');
  return new TillpointError('parameter_invalid', `Invalid ${param}: ${issue.message}`, { param });
}

/**
 * Parses request input with a schema; a refusal becomes our error, naming the parameter. The input
 * is reported to zod only so that "missing" and "wrong type" can be told apart; it never reaches a
 * message or a log.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

/**
 * PostgreSQL's refusals of a character it cannot store (22021: NUL or invalid UTF-8 in text; 22P05:
 * `\u0000` in jsonb). Validation refuses these first; should one slip through, it is still the
 * request's fault, not ours.
 */
const UNSTORABLE_CHARACTER_CODES = new Set(['22021', '22P05']);

function isUnstorableCharacterError(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && UNSTORABLE_CHARACTER_CODES.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** Any thrown value → our error: known ones keep their code, everything else is internal. */
export function toTillpointError(error: unknown): TillpointError {
  if (error instanceof TillpointError) return error;
  if (error instanceof z.ZodError) return fromZodError(error);
  if (isUnstorableCharacterError(error)) {
    return new TillpointError('parameter_invalid', 'The request holds a character that cannot be stored (NUL or an unpaired UTF-16 surrogate)');
  }
  const fastifyError = error as FastifyError;
  switch (fastifyError?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new TillpointError('parameter_invalid', 'The request body is larger than 256 KB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new TillpointError('parameter_invalid', 'Send the request body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new TillpointError('parameter_invalid', 'The request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new TillpointError('parameter_invalid', 'The request body is not valid JSON');
    case 'FST_ERR_BAD_URL':
      return new TillpointError('parameter_invalid', 'The URL is not valid percent-encoded UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new TillpointError('parameter_invalid', 'A path parameter is longer than any id (1,000 characters at most)');
  }
  if (fastifyError instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new TillpointError('parameter_invalid', 'The request body is not valid JSON');
  }
  return new TillpointError('internal_error', 'Something went wrong on our side; it has been logged');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown, reporter?: ErrorReporter) {
  const known = toTillpointError(error);
  const session = checkoutSessionOfUrl(request.url);
  const tags = { request_id: request.id, route: request.routeOptions?.url ?? 'unknown', ...(session ? { checkout_session: session } : {}) };
  if (known.code === 'internal_error') {
    // Log the cause, never the request body: it may hold card data.
    request.log.error({ err: error }, 'unhandled error');
    reporter?.captureException(error, { tags });
  } else if (known.code === 'card_declined' && isOurSideDecline(known.declineCode)) {
    reporter?.captureMessage(`Decline caused by our set-up: ${known.declineCode}`, { tags: { ...tags, decline_code: known.declineCode! } });
  }
  return reply.status(known.status).send(errorBody(known, request.id));
}
