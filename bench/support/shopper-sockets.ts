/**
 * The paying phase's load generator: one keep-alive TCP connection per shopper, each sending one
 * ready-made HTTP/1.1 request at a time and reading its answer by Content-Length. It runs on the
 * same two cores as the server and PostgreSQL, so what it spends is taken from what it measures:
 * Node's `http` client with an agent spent 5–6 ms of CPU on a round of 50 payments (a tenth of the
 * round's CPU) and took 3–6 ms only to send the burst; these sockets spend a fraction of that, as a
 * load generator such as autocannon or wrk does.
 * `BENCH_CLIENT=node` measures with Node's `http` client instead.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Answer {
  status: number;
  body: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One connection, one request at a time. */
class ShopperSocket {
  private readonly socket: net.Socket;
  private readonly connected: Promise<void>;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: { resolve: (answer: Answer) => void; reject: (error: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(port: number) {
    this.socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
    this.connected = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    const fail = (error: Error) => {
      this.failure = error;
      this.pending?.reject(error);
      this.pending = null;
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('the server closed the connection')));
  }

  async send(request: Buffer): Promise<Answer> {
    await this.connected;
    if (this.failure) throw this.failure;
    if (this.pending) throw new Error('one request at a time on a shopper socket');
    return new Promise<Answer>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(request);
    });
  }

  private read(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headEnd = this.buffered.indexOf(HEADER_END);
    if (headEnd < 0) return;
    const head = this.buffered.subarray(0, headEnd).toString('latin1');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) {
      this.pending?.reject(new Error(`an answer without Content-Length: ${head.split('\r\n')[0]}`));
      this.pending = null;
      return;
    }
    const end = headEnd + HEADER_END.length + Number(length[1]);
    if (this.buffered.length < end) return;
    const answer = { status: Number(head.slice(9, 12)), body: this.buffered.subarray(headEnd + HEADER_END.length, end).toString('utf8') };
    this.buffered = this.buffered.subarray(end);
    const pending = this.pending;
    this.pending = null;
    pending?.resolve(answer);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** `count` shoppers' connections to one server, opened once and kept. */
export class ShopperSockets {
  private readonly sockets: ShopperSocket[];

  constructor(
    private readonly port: number,
    count: number,
  ) {
    this.sockets = Array.from({ length: count }, () => new ShopperSocket(port));
  }

  /** A POST of a JSON body, ready to write. */
  static post(path: string, body: string): Buffer {
    const bytes = Buffer.from(body);
    return Buffer.concat([
      Buffer.from(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\n\r\n`, 'latin1'),
      bytes,
    ]);
  }

  /** Sends each request on its own connection, all at once; each answer with its time in ms. */
  async sendAll(requests: Buffer[]): Promise<Array<Answer & { ms: number }>> {
    if (requests.length > this.sockets.length) throw new Error(`${requests.length} requests for ${this.sockets.length} connections to :${this.port}`);
    return Promise.all(
      requests.map(async (request, i) => {
        const started = performance.now();
        const answer = await this.sockets[i]!.send(request);
        return { ...answer, ms: performance.now() - started };
      }),
    );
  }

  close(): void {
    for (const socket of this.sockets) socket.close();
  }
}
