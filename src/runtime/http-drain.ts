import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../domain/deps';
import { TillpointError } from '../domain/shared/errors';

/** A quiet this long with no new connection (and no request under way) lets the listener close. */
const ACCEPT_QUIET_MS = 100;
/** A connection accepted without a request yet: how long it has to send one once the listener has closed. */
const FIRST_REQUEST_GRACE_MS = 2000;
/**
 * Requests received during the drain that may begin their first write at once; the others wait
 * their turn, so that the work already begun finishes first, and those still waiting at the
 * refusal point are refused.
 */
const BEGIN_AT_ONCE = 8;

export interface HttpDrain {
  /**
   * The database as HTTP requests see it. While draining, a request's first write (transaction or
   * single-statement write) waits for one of BEGIN_AT_ONCE turns; from `refuseAfterMs` on, a
   * request that has not begun writing is refused at its next statement (`503`, nothing done),
   * while one that has begun (a payment sent to the processor, say) goes on to its answer.
   * Work outside requests (jobs, the webhook worker) and after a request's answer passes as is.
   */
  store(inner: Store): Store;
  /**
   * Ends the HTTP side without resetting a connection: every answer from now on carries
   * `Connection: close`. The listener stays open, taking every connection the kernel queued; from
   * `refuseAfterMs` on, each new request is refused at once with `503` (and its connection closed
   * after the answer). The listener closes once no request is under way and no connection has come
   * for a moment, or at `closeByMs`; each connection then closes after its last answer (an idle
   * keep-alive one at once, one that has sent nothing yet after a short grace, cut to `closeByMs`).
   * Resolves when no connection is left.
   */
  drain(options: { refuseAfterMs: number; closeByMs: number }): Promise<void>;
  /** Whether draining has begun. */
  readonly draining: boolean;
}

interface Connection {
  /** Requests being answered on it now. */
  active: number;
  /** Requests answered on it so far. */
  served: number;
}

/** A request's place in the drain, carried through its handler's async work. */
interface RequestWork {
  /** It has asked for a write: it goes on to its answer whatever comes. */
  begun: boolean;
  /** Its answer is on its way (or it is gone): what follows (the request log) is bookkeeping. */
  answered: boolean;
  /** It holds one of the BEGIN_AT_ONCE turns. */
  turn: boolean;
  /** Refused by the drain before it began writing: each of its statements fails, those waiting at once. */
  refused: boolean;
  /** Rejected when it is refused; each statement it waits for races it. */
  refusal: Promise<never>;
  refuse: () => void;
}

function requestWork(): RequestWork {
  let refuse: () => void = () => undefined;
  const refusal = new Promise<never>((_resolve, reject) => {
    refuse = () => reject(shuttingDown());
  });
  // Nobody may be waiting on it when it comes.
  refusal.catch(() => undefined);
  const work: RequestWork = {
    begun: false,
    answered: false,
    turn: false,
    refused: false,
    refusal,
    refuse: () => {
      work.refused = true;
      refuse();
    },
  };
  return work;
}

/** What a request refused by the drain answers: 503, nothing done, try again (another instance). */
export function shuttingDown(): TillpointError {
  return new TillpointError('database_unavailable', 'This server is shutting down; nothing was done. Send the request again.');
}

/**
 * Graceful shutdown of a Fastify server's listener and connections. Node's own `server.close()`
 * would close the listener at once — connections still queued in the kernel are then reset — and
 * close every connection with no request under way, including those whose first request has not
 * been read yet (reset too). Its `store` must wrap the database the HTTP server is built with, and
 * `attach` be called before the server starts listening.
 */
export function httpDrain(): HttpDrain & { attach(app: FastifyInstance): void } {
  const requests = new AsyncLocalStorage<RequestWork>();
  /** The same, by request, for the hooks that run outside the handler's context. */
  const works = new WeakMap<IncomingMessage, RequestWork>();
  let draining = false;
  let refusing = false;
  let turnsTaken = 0;
  const waitingTurn: Array<{ work: RequestWork; resolve: () => void }> = [];
  /** Requests past their body and not yet answered. */
  const active = new Set<RequestWork>();

  const release = (work: RequestWork) => {
    work.answered = true;
    active.delete(work);
    if (!work.turn) return;
    work.turn = false;
    turnsTaken -= 1;
    const next = waitingTurn.shift();
    if (next) {
      turnsTaken += 1;
      next.work.turn = true;
      next.work.begun = true;
      next.resolve();
    }
  };
  /** Every request under way that has not begun writing is refused: its statements fail at once. */
  const refuseNotBegun = () => {
    refusing = true;
    waitingTurn.length = 0;
    for (const work of active) if (!work.begun && !work.answered) work.refuse();
  };
  /** Null when the write may go at once; else a wait for its turn (failing if the request is refused first). */
  const beforeWrite = (): Promise<void> | null => {
    const work = requests.getStore();
    if (!work || work.answered || work.begun) return null;
    if (work.refused) return work.refusal;
    if (!draining) {
      work.begun = true;
      return null;
    }
    if (turnsTaken < BEGIN_AT_ONCE) {
      turnsTaken += 1;
      work.turn = true;
      work.begun = true;
      return null;
    }
    return Promise.race([new Promise<void>((resolve) => waitingTurn.push({ work, resolve })), work.refusal]);
  };
  /** A read of a request not yet writing: it fails as soon as the request is refused. */
  const read = <T>(run: () => Promise<T>): Promise<T> => {
    const work = requests.getStore();
    if (!work || work.answered || work.begun) return run();
    if (work.refused) return work.refusal;
    return Promise.race([run(), work.refusal]);
  };

  let server: HttpServer | null = null;
  const connections = new Map<Socket, Connection>();
  let lastAcceptAt = 0;
  /** Requests being answered now, on every connection. */
  let underWay = 0;
  let allClosed: (() => void) | null = null;
  const closeIfIdle = (socket: Socket, state: Connection) => {
    if (draining && state.active === 0 && state.served > 0) socket.destroySoon();
  };

  /**
   * Resolves once no request is under way and no connection has been accepted for ACCEPT_QUIET_MS
   * — a timer can fire after a long busy turn before the loop has polled the listener, so the check
   * is made after that poll (an immediate), when the connections the kernel queued meanwhile have
   * been accepted — or at `closeBy` (performance.now()).
   */
  const quiet = async (closeBy: number) => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, ACCEPT_QUIET_MS));
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      if ((underWay === 0 && now - lastAcceptAt >= ACCEPT_QUIET_MS) || now >= closeBy) return;
    }
  };

  return {
    get draining() {
      return draining;
    },
    store(inner) {
      return {
        transaction: (work) => {
          const wait = beforeWrite();
          return wait ? wait.then(() => inner.transaction(work)) : inner.transaction(work);
        },
        once: (work) => {
          const wait = beforeWrite();
          return wait ? wait.then(() => inner.once(work)) : inner.once(work);
        },
        read: (work) => read(() => inner.read(work)),
        readReplica: (work) => read(() => inner.readReplica(work)),
      };
    },
    attach(app) {
      server = app.server as HttpServer;
      server.on('connection', (socket: Socket) => {
        lastAcceptAt = performance.now();
        const state: Connection = { active: 0, served: 0 };
        connections.set(socket, state);
        socket.once('close', () => {
          connections.delete(socket);
          if (connections.size === 0) allClosed?.();
        });
      });
      server.on('request', (request, response) => {
        const state = connections.get(request.socket);
        if (!state) return;
        state.active += 1;
        underWay += 1;
        response.once('close', () => {
          state.active -= 1;
          underWay -= 1;
          state.served += 1;
          closeIfIdle(request.socket, state);
        });
      });
      // Past the refusal point a new request is refused before any work: 503, and its connection
      // closes after the answer.
      app.addHook('onRequest', async () => {
        if (refusing) throw shuttingDown();
      });
      // Once the body is read, the request's work carries its place in the drain (the handler and
      // every statement it starts run in this context).
      app.addHook('preValidation', (request, reply, done) => {
        if (refusing) return done(shuttingDown());
        const work = requestWork();
        active.add(work);
        works.set(request.raw, work);
        reply.raw.once('close', () => release(work));
        requests.enterWith(work);
        done();
      });
      // Set as each answer is sent, so an answer that began before the drain and ends after it closes
      // its connection too: the client learns not to send another request on it.
      app.addHook('onSend', async (request, reply) => {
        if (draining) reply.header('connection', 'close');
        const work = works.get(request.raw);
        if (work) release(work);
      });
    },
    async drain({ refuseAfterMs, closeByMs }) {
      if (draining) return;
      draining = true;
      const began = performance.now();
      const refusal = setTimeout(refuseNotBegun, refuseAfterMs);
      try {
        if (server?.listening) {
          await quiet(began + closeByMs);
          // net.Server's close: the listener only (its callback would wait for every connection).
          // http.Server's would also drop connections whose first request is still unread.
          NetServer.prototype.close.call(server);
        }
        for (const [socket, state] of connections) closeIfIdle(socket, state);
        const graceMs = Math.max(0, Math.min(FIRST_REQUEST_GRACE_MS, began + closeByMs - performance.now()));
        const grace = setTimeout(() => {
          // After the loop's next poll: a request the kernel already holds is read first.
          setImmediate(() => {
            for (const [socket, state] of connections) if (state.active === 0 && state.served === 0) socket.destroy();
          });
        }, graceMs);
        if (connections.size > 0) await new Promise<void>((resolve) => (allClosed = resolve));
        clearTimeout(grace);
      } finally {
        clearTimeout(refusal);
      }
    },
  };
}
