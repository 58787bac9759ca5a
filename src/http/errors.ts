import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { TillpointError } from '../domain/shared/errors';
import { checkoutSessionOfUrl, isOurSideDecline } from '../adapters/telemetry/reporting-policy';
import type { ErrorReporter } from '../adapters/telemetry/server-reporting';
import { drainRefusedBody, isBodyUnread } from './refused-body';

/** The largest request body accepted (design.md §5); a larger one is refused with 413. */
export const BODY_LIMIT = 256 * 1024;

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
  // Our wordings and the schemas' own messages say what the parameter "must be": the sentence
  // starts with its name. Anything else (zod's own text, from a parse outside parseInput) is quoted.
  const message = /^[a-z]/.test(issue.message) ? `${param} ${issue.message}` : `Invalid ${param}: ${issue.message}`;
  return new TillpointError('parameter_invalid', message, { param });
}

const typeWording: Record<string, string> = {
  string: 'must be a string',
  boolean: 'must be true or false',
  object: 'must be an object',
  array: 'must be an array',
  null: 'must be null',
};

const formatWording: Record<string, string> = {
  url: 'must be an absolute URL',
  email: 'must be an email address',
  uuid: 'must be a UUID',
  datetime: 'must be a date and time in ISO 8601 (2026-06-01T12:00:00Z)',
  date: 'must be a date in ISO 8601 (2026-06-01)',
};

const plural = (n: number | bigint, one: string) => `${n} ${one}${Number(n) === 1 ? '' : 's'}`;

/**
 * Our wording of a problem the schema did not word itself, as the rest of a sentence that starts
 * with the parameter's name: "amount must be an integer (in the currency's minor unit)". Schemas
 * that word their own messages ("must be a three-letter ISO 4217 code") keep them: zod asks this
 * map only for the others. The one place zod's issue kinds become what a developer reads.
 */
export const validationWording: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return undefined; // a missing parameter: parameter_missing
      if (issue.expected === 'number' || issue.expected === 'int') {
        const integer = issue.expected === 'int' || (issue.inst as { isInt?: boolean } | undefined)?.isInt === true;
        if (!integer) return 'must be a number';
        const amount = /amount/.test(String(issue.path?.at(-1) ?? ''));
        return amount ? "must be an integer (in the currency's minor unit)" : 'must be an integer';
      }
      return typeWording[issue.expected] ?? `must be of type ${issue.expected}`;
    }
    case 'too_small': {
      const at = issue.inclusive === false ? 'more than' : 'at least';
      if (issue.origin === 'string') return `must be ${at} ${plural(issue.minimum, 'character')} long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have ${at} ${plural(issue.minimum, 'item')}`;
      return `must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${issue.minimum}`;
    }
    case 'too_big': {
      const at = issue.inclusive === false ? 'fewer than' : 'at most';
      if (issue.origin === 'string') return `must be ${at} ${plural(issue.maximum, 'character')} long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have ${at} ${plural(issue.maximum, 'item')}`;
      if (issue.origin === 'object') return `must have ${at} ${plural(issue.maximum, 'key')}`;
      return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${issue.maximum}`;
    }
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      return values.length === 1 ? `must be ${values[0]}` : `must be one of ${values.join(', ')}`;
    }
    case 'invalid_format':
      return formatWording[issue.format] ?? (issue.format === 'regex' ? 'is not in the expected format' : `must be a valid ${issue.format}`);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return 'is none of the accepted forms';
    default:
      return 'is invalid';
  }
};

/**
 * Parses request input with a schema; a refusal becomes our error, naming the parameter in our own
 * words. The input is reported to zod only so that "missing" and "wrong type" can be told apart; it
 * never reaches a message or a log.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value, { reportInput: true, error: validationWording });
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

/** The body limit a request was held to: its route's, else the server's, and what it stands for. */
export interface BodyLimit {
  bytes: number;
  /** Said after the limit, e.g. the file limit a route's larger limit is made for. */
  note?: string | undefined;
}

/** A body limit as a person reads it: `256 KB`, `5.4 MB`. */
export function formatBodyLimit(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Any thrown value → our error: known ones keep their code, everything else is internal. */
export function toTillpointError(error: unknown, bodyLimit: BodyLimit = { bytes: BODY_LIMIT }): TillpointError {
  if (error instanceof TillpointError) return error;
  if (error instanceof z.ZodError) return fromZodError(error);
  if (isUnstorableCharacterError(error)) {
    return new TillpointError('parameter_invalid', 'The request holds a character that cannot be stored (NUL or an unpaired UTF-16 surrogate)');
  }
  const fastifyError = error as FastifyError;
  switch (fastifyError?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new TillpointError(
        'request_too_large',
        `The request body is larger than the limit of ${formatBodyLimit(bodyLimit.bytes)} (${bodyLimit.bytes} bytes)${bodyLimit.note ? `: ${bodyLimit.note}` : ''}`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new TillpointError('parameter_invalid', 'Send the request body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new TillpointError('parameter_invalid', 'The request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new TillpointError('parameter_invalid', 'The request body is not valid JSON');
    case 'FST_ERR_BAD_URL':
      return new TillpointError('parameter_invalid', 'The URL is not valid percent-encoded UTF-8');
    // @fastify/csrf-protection's refusals of a dashboard write: no secret, or a token not made from it.
    case 'FST_CSRF_MISSING_SECRET':
    case 'FST_CSRF_INVALID_TOKEN':
      return new TillpointError('csrf_token_invalid', 'This request needs the X-CSRF-Token header of your session; reload the page');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new TillpointError('parameter_invalid', 'A path parameter is longer than any id (1,000 characters at most)');
  }
  if (fastifyError instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new TillpointError('parameter_invalid', 'The request body is not valid JSON');
  }
  return new TillpointError('internal_error', 'Something went wrong on our side; it has been logged');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown, reporter?: ErrorReporter) {
  // A route with a larger limit than the server's (evidence files) names its own limit.
  const known = toTillpointError(error, {
    bytes: request.routeOptions?.bodyLimit ?? BODY_LIMIT,
    note: request.routeOptions?.config?.contract?.bodyLimitNote,
  });
  const session = checkoutSessionOfUrl(request.url);
  const tags = { request_id: request.id, route: request.routeOptions?.url ?? 'unknown', ...(session ? { checkout_session: session } : {}) };
  if (known.code === 'internal_error') {
    // Log the cause, never the request body: it may hold card data.
    request.log.error({ err: error }, 'unhandled error');
    reporter?.captureException(error, { tags });
  } else if (known.code === 'card_declined' && isOurSideDecline(known.declineCode)) {
    reporter?.captureMessage(`Decline caused by our set-up: ${known.declineCode}`, { tags: { ...tags, decline_code: known.declineCode! } });
  }
  // A database past its bounds (down, or a lock or statement timeout) is worth retrying shortly.
  if (known.code === 'database_unavailable') reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
  // A body refused unread (over the limit) is read on and thrown away first, so its sender, done
  // sending, reads this answer rather than a closed connection.
  if (isBodyUnread(request)) {
    return drainRefusedBody(request).then(() => reply.status(known.status).send(errorBody(known, request.id)));
  }
  return reply.status(known.status).send(errorBody(known, request.id));
}

/** What a 503 `database_unavailable` asks the caller to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;
