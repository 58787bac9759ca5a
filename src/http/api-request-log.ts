import type { FastifyInstance } from 'fastify';
import type { Deps } from '../domain/deps';
import type { ApiRequestRecord } from '../domain/team/entities';
import { apiRequestRecord, recordApiRequests as writeApiRequests } from '../domain/api-guards/use-cases/record-api-request';

declare module 'fastify' {
  interface FastifyRequest {
    /** The catalogue code of an error answer, for the request log. */
    errorCode?: string;
    /** The objects a successful answer named (its own id, its payment), for the request log. */
    answeredObjects?: string[];
  }
}

/** A batch is written once this many records wait, or after FLUSH_MS, whichever comes first. */
const BATCH_SIZE = 200;
const FLUSH_MS = 50;
/** The most records kept in memory while the database is slow or away; the oldest go first. */
export const REQUEST_LOG_BUFFER_LIMIT = 10_000;

interface Log {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * The request log's write-behind buffer: calls are noted in memory and written in batches (one
 * statement per batch) just after their answers, never in their way. Bounded: past
 * REQUEST_LOG_BUFFER_LIMIT waiting records the oldest are dropped (and counted in the log).
 * `flush()` writes everything noted so far; the server's close hook calls it.
 */
export class ApiRequestLogBuffer {
  private waiting: ApiRequestRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Whether `writing` is still writing: a flush meanwhile joins it. */
  private draining = false;
  /** How many of the waiting records a flush asked to be written, full batch or not. */
  private owed = 0;
  private dropped = 0;

  constructor(
    private readonly deps: Pick<Deps, 'store'>,
    private readonly log: Log,
  ) {}

  add(record: ApiRequestRecord): void {
    this.waiting.push(record);
    if (this.waiting.length > REQUEST_LOG_BUFFER_LIMIT) {
      this.waiting.shift();
      this.dropped += 1;
    }
    if (this.waiting.length >= BATCH_SIZE) void this.write();
    else this.flushLater();
  }

  /** Writes every record noted so far; resolves once they are in the database (or have failed). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.owed = this.waiting.length;
    return this.write();
  }

  private flushLater(): void {
    if (this.timer || this.waiting.length === 0) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /**
   * One writer at a time, batch after batch in order. It writes full batches while BATCH_SIZE
   * records wait, and what a flush found waiting; what comes in meanwhile waits for a full batch or
   * FLUSH_MS. (A writer that went on with whatever had come in while it wrote made one small
   * statement per write once the calls came faster than the database took them: a statement every
   * millisecond or so.)
   */
  private write(): Promise<void> {
    if (!this.draining) {
      this.draining = true;
      this.writing = this.drain();
    }
    return this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.waiting.length >= BATCH_SIZE || (this.owed > 0 && this.waiting.length > 0)) {
        if (this.dropped > 0) {
          this.log.warn({ dropped: this.dropped }, 'the request log buffer was full: dropped the oldest records');
          this.dropped = 0;
        }
        const batch = this.waiting.splice(0, BATCH_SIZE);
        this.owed = Math.max(0, this.owed - batch.length);
        try {
          await writeApiRequests(this.deps, batch);
        } catch (error) {
          this.log.error({ err: error, records: batch.length }, 'could not record API requests');
        }
      }
    } finally {
      this.draining = false;
      this.owed = 0;
      this.flushLater();
    }
  }
}

/**
 * The ids a successful answer names: the object's own (`{"id":"re_…"`, first in every reply shape)
 * and the payment and checkout session it belongs to. Nothing else of the body is read.
 */
export function answeredObjects(payload: string): string[] {
  const own = /^\{"id":"([A-Za-z0-9_]{1,80})"/.exec(payload)?.[1];
  if (!own) return [];
  const ids = [own];
  for (const field of RELATED_FIELDS) {
    const related = field.exec(payload)?.[1];
    if (related && !ids.includes(related)) ids.push(related);
  }
  return ids;
}

/** The related objects an answer may name, by their fields. */
const RELATED_FIELDS = ['payment', 'checkout_session'].map((field) => new RegExp(`"${field}":"([A-Za-z0-9_]{1,80})"`));

/**
 * Notes every authenticated merchant API call in the request log (Developers page): method, path
 * without its query, status and error code, and the ids its answer named (answeredObjects).
 * Bodies and queries are otherwise never read here: they may hold customer data. Written in batches after the answer has gone, so the log never slows or fails a
 * call; what is still buffered is written when the server closes.
 */
export function recordApiRequests(app: FastifyInstance, deps: Deps): ApiRequestLogBuffer {
  const buffer = new ApiRequestLogBuffer(deps, app.log);
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      const code = /^\{"error":\{"type":"[a-z_]+","code":"([a-z_]+)"/.exec(payload)?.[1];
      if (code) request.errorCode = code;
    } else if (request.apiKey && reply.statusCode < 300 && typeof payload === 'string') {
      request.answeredObjects = answeredObjects(payload);
    }
    return payload;
  });
  app.addHook('onResponse', (request, reply, done) => {
    const key = request.apiKey;
    if (key) {
      buffer.add(
        apiRequestRecord(deps, {
          accountId: key.accountId,
          mode: key.mode,
          keyId: key.id,
          method: request.method,
          path: request.url.split('?')[0]!.slice(0, 300),
          status: reply.statusCode,
          errorCode: request.errorCode ?? null,
          requestId: request.id,
          objectIds: request.answeredObjects ?? [],
        }),
      );
    }
    done();
  });
  app.addHook('onClose', async () => {
    await buffer.flush();
  });
  return buffer;
}
