import { EventSourceParserStream } from 'eventsource-parser/stream';
import { errorFromResponse, TillpointError } from './errors.js';
import type { Event } from './types.js';

export interface EventStreamOptions {
  /** Stops the stream. */
  signal?: AbortSignal;
  /** Called each time the connection is open: events created from then on will come. */
  onConnect?: () => void;
  /** Called when the connection dropped; the stream reconnects and resumes after the last event. */
  onDisconnect?: (error: unknown) => void;
  /** Wait before reconnecting, in milliseconds. */
  reconnectDelayMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The account's events as they happen, from `GET /v1/events/stream` (server-sent events). Resumes
 * with `Last-Event-ID` after a dropped connection, so no event is lost or repeated; an answer
 * other than 200 (a bad key) ends it with the typed error.
 */
export async function* streamEvents(
  options: { baseUrl: string; secretKey: string; fetch: typeof globalThis.fetch } & EventStreamOptions,
): AsyncGenerator<Event> {
  let lastEventId: string | undefined;
  while (!options.signal?.aborted) {
    try {
      const response = await options.fetch(`${options.baseUrl}/v1/events/stream`, {
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          accept: 'text/event-stream',
          ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        },
        signal: options.signal,
      });
      if (!response.ok || !response.body) {
        throw errorFromResponse(response.status, await response.json().catch(() => null), response.headers.get('request-id'));
      }
      options.onConnect?.();
      const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      try {
        for (let read = await messages.read(); !read.done; read = await messages.read()) {
          if (read.value.id) lastEventId = read.value.id;
          yield JSON.parse(read.value.data) as Event;
        }
      } finally {
        // Stopped early (the caller broke out) or the line dropped: close the connection.
        await messages.cancel().catch(() => undefined);
      }
      options.onDisconnect?.(new Error('the server closed the stream'));
    } catch (error) {
      if (options.signal?.aborted) return;
      // A refusal (bad key, wrong mode) will not change by retrying; a 5xx or a dropped line may.
      if (error instanceof TillpointError && error.statusCode !== undefined && error.statusCode < 500) throw error;
      options.onDisconnect?.(error);
    }
    await sleep(options.reconnectDelayMs ?? 1000, options.signal);
  }
}
