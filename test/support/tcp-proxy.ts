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
      upstream.pipe(client);
      client.on('data', (chunk: Buffer) => {
        const losing = this.losing;
        if (losing && chunk.includes(losing.marker)) {
          this.losing = null;
          this.loseAnswer(client, upstream, losing.done);
        }
        upstream.write(chunk);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  private losing: { marker: string; done: () => void } | null = null;

  /**
   * The next statement whose bytes hold `marker` reaches the server, which carries it out and
   * answers; the answer never reaches the client: its connection is reset once the server says it is
   * ready again (the statement committed). Resolves then. Other connections are left alone.
   */
  loseAnswerTo(marker: string): Promise<void> {
    return new Promise((done) => {
      this.losing = { marker, done };
    });
  }

  /** Reads the server's messages on (a node-postgres client sends nothing before they are done) up to ReadyForQuery, then resets the client. */
  private loseAnswer(client: Socket, upstream: Socket, done: () => void): void {
    upstream.unpipe(client);
    let buffered = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 5) {
        const length = buffered.readInt32BE(1);
        if (buffered.length < 1 + length) return;
        const type = String.fromCharCode(buffered[0]!);
        buffered = buffered.subarray(1 + length);
        if (type === 'Z') {
          client.resetAndDestroy();
          upstream.destroy();
          done();
          return;
        }
      }
    });
    // Unpiped, the stream was paused: read on.
    upstream.resume();
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
