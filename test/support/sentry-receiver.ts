import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One envelope as a Sentry-protocol server receives it. */
export interface ReceivedEnvelope {
  project: string;
  receivedAt: number;
  /** The raw body, for "this text never left the process" assertions. */
  raw: string;
  headers: Record<string, unknown>;
  items: Array<{ type: string; header: Record<string, unknown>; payload: any }>;
}

/** Splits an envelope: a header line, then per item a header line and its payload. */
export function parseEnvelope(raw: string): Pick<ReceivedEnvelope, 'headers' | 'items'> {
  const lines = raw.split('\n');
  const headers = JSON.parse(lines[0] || '{}');
  const items: ReceivedEnvelope['items'] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]) continue;
    const header = JSON.parse(lines[i]!);
    const payloadText = lines[++i] ?? '';
    let payload: unknown = payloadText;
    try {
      payload = JSON.parse(payloadText);
    } catch {
      // attachments are not JSON
    }
    items.push({ type: header.type, header, payload });
  }
  return { headers, items };
}

/**
 * A stand-in for Sentry (or GlitchTip) in tests: accepts envelopes from the real SDKs at
 * `/api/:project/envelope/`, answers the browser's CORS, and lists what it got at `/__envelopes`.
 */
export async function startSentryReceiver(port = 0): Promise<{ url: string; server: Server; envelopes: ReceivedEnvelope[]; close(): Promise<void> }> {
  const envelopes: ReceivedEnvelope[] = [];
  const server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', '*');
    response.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    if (request.method === 'GET' && request.url === '/__envelopes') {
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelopes));
    }
    const match = /^\/api\/(\d+)\/envelope\/?/.exec(request.url ?? '');
    if (request.method !== 'POST' || !match) return void response.writeHead(404).end();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const raw = body.toString('utf8');
      try {
        envelopes.push({ project: match[1]!, receivedAt: Date.now(), raw, ...parseEnvelope(raw) });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  // Every interface, IPv4 and IPv6, so `localhost` reaches it however it resolves.
  await new Promise<void>((resolve) => server.listen(port, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${bound}`,
    server,
    envelopes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
