import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, type SqlClient } from '../../src/persistence/sql-client';

/**
 * Connection races that a real server makes rare and a busy one makes certain, staged exactly with
 * a minimal PostgreSQL wire-protocol server: it says "ready" to every connection and answers each
 * simple query with its command tag. From the second connection on, it can send, in the same TCP
 * write as "ready", the FATAL that `pg_terminate_backend` sends.
 */
class FakePostgres {
  private server = net.createServer((socket) => this.accept(socket));
  private connections = 0;
  private sockets = new Set<net.Socket>();
  terminateNewConnections = false;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `postgres://tillpoint@127.0.0.1:${(this.server.address() as net.AddressInfo).port}/fake`;
  }

  async stop() {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(socket: net.Socket) {
    const number = ++this.connections;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    let started = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          if (buffered.length < 4) return;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) return;
          buffered = buffered.subarray(length);
          started = true;
          const ready = Buffer.concat([message('R', int32(0)), message('Z', Buffer.from('I'))]);
          socket.write(number > 1 && this.terminateNewConnections ? Buffer.concat([ready, fatal()]) : ready);
          continue;
        }
        if (buffered.length < 5) return;
        const type = String.fromCharCode(buffered[0]!);
        const length = buffered.readInt32BE(1);
        if (buffered.length < 1 + length) return;
        const body = buffered.subarray(5, 1 + length);
        buffered = buffered.subarray(1 + length);
        if (type === 'X') return void socket.end();
        if (type === 'Q') {
          const tag = body.toString('utf8').replace(/\0$/, '').trim().split(/\s+/)[0]!.toUpperCase();
          socket.write(Buffer.concat([message('C', cstring(tag)), message('Z', Buffer.from(tag === 'BEGIN' ? 'T' : 'I'))]));
        }
      }
    });
  }
}

const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const cstring = (s: string) => Buffer.from(`${s}\0`, 'utf8');
const message = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type), int32(body.length + 4), body]);
const fatal = () =>
  message(
    'E',
    Buffer.concat([
      Buffer.from('S'),
      cstring('FATAL'),
      Buffer.from('C'),
      cstring('57P01'),
      Buffer.from('M'),
      cstring('terminating connection due to administrator command'),
      Buffer.from([0]),
    ]),
  );

describe('the PostgreSQL client under connection races', () => {
  let fake: FakePostgres;
  let db: SqlClient | undefined;
  afterEach(async () => {
    await db?.close().catch(() => undefined);
    await fake?.stop();
  });

  it('a backend terminated as its connection is handed out fails that transaction as database_unavailable, and the process lives on', async () => {
    fake = new FakePostgres();
    db = await openPostgres(await fake.start(), { max: 2 });
    fake.terminateNewConnections = true;
    // Two at once: one takes the idle connection, the other opens the connection that is terminated.
    const [healthy, terminated] = await Promise.allSettled([
      db.transaction(async (tx) => tx.query('SELECT 1')),
      (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return db!.transaction(async (tx) => tx.query('SELECT 1'));
      })(),
    ]);
    expect(healthy.status).toBe('fulfilled');
    expect(terminated).toMatchObject({ status: 'rejected', reason: { code: 'database_unavailable' } });
    // The dead connection was dropped, not handed out again.
    fake.terminateNewConnections = false;
    await expect(db.transaction(async (tx) => tx.query('SELECT 1'))).resolves.toBeDefined();
  });
});
