import { randomUUID } from 'node:crypto';
import { ConnectionError } from './errors.js';

export interface TransportOptions {
  /** Retries of a request that got no answer, a 5xx, a 429 or a 409 `idempotency_key_in_use`. */
  maxNetworkRetries: number;
  /** Time allowed for one attempt, in milliseconds. */
  timeoutMs: number;
  /** First backoff, doubled on each retry (with jitter), in milliseconds. */
  initialRetryDelayMs: number;
  maxRetryDelayMs: number;
  fetch: typeof globalThis.fetch;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether an answer is worth another attempt (with the same Idempotency-Key, so never twice applied). */
async function retryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status === 409) {
    const body = await response
      .clone()
      .json()
      .catch(() => null);
    return body?.error?.code === 'idempotency_key_in_use';
  }
  return false;
}

function delayFor(attempt: number, options: TransportOptions, response?: Response): number {
  const retryAfter = Number(response?.headers.get('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1000, options.maxRetryDelayMs);
  const base = Math.min(options.initialRetryDelayMs * 2 ** attempt, options.maxRetryDelayMs);
  return base / 2 + Math.random() * (base / 2);
}

/**
 * A `fetch` for openapi-fetch that gives every POST an Idempotency-Key (unless the caller chose
 * one), bounds each attempt by a timeout, and retries network failures, timeouts, 5xx and 429
 * with exponential backoff, sending the same key each time: the server replays the first answer
 * instead of acting twice.
 */
export function retryingFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers = new Headers(request.headers);
    if (request.method === 'POST' && !headers.has('idempotency-key')) headers.set('idempotency-key', randomUUID());
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxNetworkRetries;
      const timeout = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      try {
        const answer = await options.fetch(request.url, {
          method: request.method,
          headers,
          body,
          signal: AbortSignal.any([request.signal, timeout]),
        });
        // Read the whole answer within the attempt: a connection cut mid-body is retried too.
        const bytes = await answer.arrayBuffer();
        const empty = answer.status === 204 || answer.status === 304;
        response = new Response(empty ? null : bytes, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (last) {
          const what = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : `failed (${(error as Error).message})`;
          throw new ConnectionError(
            {
              type: 'api_connection_error',
              code: timeout.aborted ? 'timeout' : 'connection_failed',
              message: `${request.method} ${new URL(request.url).pathname} ${what}, after ${attempt + 1} attempt(s)`,
            },
            undefined,
            { cause: error },
          );
        }
        await sleep(delayFor(attempt, options));
        continue;
      }
      if (last || !(await retryable(response))) return response;
      await sleep(delayFor(attempt, options, response));
    }
  };
}
