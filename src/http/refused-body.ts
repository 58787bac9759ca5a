import type { FastifyRequest } from 'fastify';

/** How much of a refused body is read and thrown away, at most, so that its sender can read the answer. */
export const REFUSED_BODY_DRAIN_BYTES = 16 * 1024 * 1024;
/** How long a refused body is read and thrown away, at most. */
export const REFUSED_BODY_DRAIN_MS = 30_000;

/** Whether a body was refused before it was read whole (over the limit: 413): its sender is still sending. */
export function isBodyUnread(request: FastifyRequest): boolean {
  const raw = request.raw;
  return !raw.complete && !raw.readableEnded && !raw.destroyed;
}

/**
 * Reads the rest of a refused body and throws it away, up to REFUSED_BODY_DRAIN_BYTES and
 * REFUSED_BODY_DRAIN_MS; resolves once it has all come (true) or a bound was passed and the
 * connection closed (false). The answer is sent after: answered at once, the connection was
 * closed (`Connection: close`) while the client was still sending, and the client met EPIPE or a
 * reset, often before it had read the 413.
 */
export function drainRefusedBody(request: FastifyRequest): Promise<boolean> {
  const raw = request.raw;
  return new Promise((resolve) => {
    let read = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      raw.off('data', count);
      raw.off('end', ended);
      raw.off('close', closed);
      raw.off('error', closed);
      if (!whole) raw.socket?.destroy();
      resolve(whole);
    };
    const ended = () => finish(true);
    const closed = () => finish(false);
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > REFUSED_BODY_DRAIN_BYTES) finish(false);
    };
    const timer = setTimeout(closed, REFUSED_BODY_DRAIN_MS);
    timer.unref();
    raw.on('data', count);
    raw.once('end', ended);
    raw.once('close', closed);
    raw.once('error', closed);
    raw.resume();
  });
}
