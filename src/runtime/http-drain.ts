import type { Server as HttpServer } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** A quiet this long with no new connection, and no request under way, ends the listener's drain. */
const ACCEPT_QUIET_MS = 100;
/** A connection accepted without a request yet: how long it has to send one before it is closed. */
const FIRST_REQUEST_GRACE_MS = 2000;

export interface HttpDrain {
  /**
   * Ends the HTTP side without dropping anyone: every answer from now on carries `Connection:
   * close`; the listener keeps taking the connections the kernel queued while any request is under
   * way (a busy server accepts them only bit by bit), and closes once it has been quiet and idle,
   * or after `acceptForAtMostMs`; each connection then closes after its last answer (an idle
   * keep-alive one at once, one that has sent nothing yet after a short grace). Resolves when no
   * connection is left.
   */
  drain(options: { acceptForAtMostMs: number }): Promise<void>;
  /** Whether draining has begun. */
  readonly draining: boolean;
}

interface Connection {
  /** Requests being answered on it now. */
  active: number;
  /** Requests answered on it so far. */
  served: number;
}

/**
 * Graceful shutdown of a Fastify server's listener and connections. Node's own `server.close()`
 * would close the listener at once — connections still queued in the kernel are then reset — and
 * close every connection with no request under way, including those whose first request has not
 * been read yet (reset too). Must be set up before the server starts listening.
 */
export function httpDrain(app: FastifyInstance): HttpDrain {
  const server = app.server as HttpServer;
  const connections = new Map<Socket, Connection>();
  let draining = false;
  let lastAcceptAt = 0;
  /** Requests being answered now, on every connection. */
  let underWay = 0;
  let allClosed: (() => void) | null = null;

  const closeIfIdle = (socket: Socket, state: Connection) => {
    if (draining && state.active === 0 && state.served > 0) socket.destroySoon();
  };
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
  // Set as each answer is sent, so an answer that began before the drain and ends after it closes
  // its connection too: the client learns not to send another request on it.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });

  /**
   * Resolves once no request is under way and no connection has been accepted for ACCEPT_QUIET_MS,
   * or after `atMostMs`. While requests are answered the loop is busy and takes the kernel's queue
   * a few connections per turn: closing on a short quiet alone reset connections made before the
   * signal.
   */
  const acceptQueued = async (atMostMs: number) => {
    const started = performance.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, ACCEPT_QUIET_MS));
      // A timer can fire after a long busy turn before the loop has polled the listener; an
      // immediate runs after that poll, so connections the kernel queued meanwhile are accepted.
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      if ((underWay === 0 && now - lastAcceptAt >= ACCEPT_QUIET_MS) || now - started >= atMostMs) return;
    }
  };

  return {
    get draining() {
      return draining;
    },
    async drain({ acceptForAtMostMs }) {
      if (draining) return;
      draining = true;
      if (server.listening) {
        await acceptQueued(acceptForAtMostMs);
        // net.Server's close: the listener only (its callback would wait for every connection).
        // http.Server's would also drop connections whose first request is still unread.
        NetServer.prototype.close.call(server);
      }
      for (const [socket, state] of connections) closeIfIdle(socket, state);
      const grace = setTimeout(() => {
        for (const [socket, state] of connections) if (state.active === 0 && state.served === 0) socket.destroy();
      }, FIRST_REQUEST_GRACE_MS);
      if (connections.size > 0) await new Promise<void>((resolve) => (allClosed = resolve));
      clearTimeout(grace);
    },
  };
}
