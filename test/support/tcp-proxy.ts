import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy the test controls, between Tillpoint and the shared PostgreSQL server: cutting it is
 * a database outage (every connection dropped, new ones refused) without touching the server.
 */
export class TcpProxy {
  private server: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = this.newServer();
  }

  private newServer(): Server {
    return createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  /** The database goes away: open connections are reset, new ones refused. */
  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.resetAndDestroy();
    await closed;
    this.server = this.newServer();
  }

  /** The database is back, on the same port. */
  restore(): Promise<number> {
    return this.start();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
