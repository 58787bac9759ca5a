import { chmodSync, unlinkSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * The running server's local door for the CLI: an HTTP server on a Unix socket in DATA_DIR, mode
 * 0600, so only the server's own OS user (and root) can connect. The CLI sends a command there
 * instead of opening the embedded database a second time.
 */
export const SOCKET_FILE = 'tillpoint.sock';

/** Longest Unix socket path Linux and macOS accept (sun_path less its terminating NUL). */
const MAX_SOCKET_PATH = 103;

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, SOCKET_FILE);
}

export interface AdminStatus {
  pid: number;
  nonce: string;
  startedAt: string;
}

/** A CLI command as sent over the socket: its name (`account create`) and its parsed options. */
export interface AdminCommandRequest {
  command: string;
  options: Record<string, unknown>;
}

export interface AdminCommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface AdminSocket {
  readonly path: string;
  close(): Promise<void>;
}

export class AdminSocketError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminSocketError';
  }
}

export async function startAdminSocket(options: {
  dataDir: string;
  status: AdminStatus;
  run(request: AdminCommandRequest): Promise<AdminCommandResult>;
}): Promise<AdminSocket> {
  const file = adminSocketPath(options.dataDir);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    throw new AdminSocketError(
      `DATA_DIR ${options.dataDir} is too long a path for the CLI's admin socket (${Buffer.byteLength(file)} bytes with /${SOCKET_FILE}, at most ${MAX_SOCKET_PATH}): set DATA_DIR to a shorter path.`,
    );
  }
  // We hold the DATA_DIR lock, so a socket file left here belongs to a process that died.
  try {
    unlinkSync(file);
  } catch {
    // none
  }
  const server = http.createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/status') return reply(200, options.status);
    if (request.method !== 'POST' || request.url !== '/commands') return reply(404, { error: 'no such route' });
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 1024 * 1024) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => {
      let body: AdminCommandRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdminCommandRequest;
        if (typeof body.command !== 'string' || typeof body.options !== 'object' || body.options === null) throw new Error('bad request');
      } catch {
        return reply(400, { error: 'expected {"command": string, "options": object}' });
      }
      options.run(body).then(
        (result) => reply(200, result),
        (error: unknown) => reply(500, { exitCode: 1, stdout: '', stderr: `tillpoint: the server failed to run the command: ${String(error)}\n` }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(file, 0o600);
  return {
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function request<T>(socketPath: string, method: string, url: string, body: unknown, timeoutMs: number): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ socketPath, method, path: url, headers: payload ? { 'content-type': 'application/json' } : {}, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T });
        } catch (error) {
          reject(error as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer on ${socketPath} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The server's status, or null when nothing answers on the socket. */
export async function pingAdminSocket(socketPath: string): Promise<AdminStatus | null> {
  try {
    const { status, body } = await request<AdminStatus>(socketPath, 'GET', '/status', undefined, 2000);
    return status === 200 ? body : null;
  } catch {
    return null;
  }
}

/** Runs a CLI command in the running server. */
export async function sendAdminCommand(socketPath: string, command: AdminCommandRequest): Promise<AdminCommandResult> {
  const { body } = await request<AdminCommandResult>(socketPath, 'POST', '/commands', command, 120_000);
  return body;
}
