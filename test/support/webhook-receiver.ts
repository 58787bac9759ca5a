import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook as the merchant's server saw it. */
export interface ReceivedWebhook {
  body: string;
  event: { id: string; object: string; type: string; created: number; livemode: boolean; data: { object: Record<string, any> } };
  signature: string;
  /** Whether the signature checked out with the secret the test gave (our own HMAC code, not the product's). */
  signatureValid: boolean;
  timestamp: number;
  answeredStatus: number;
}

/**
 * A merchant's webhook receiver (the third party in this exchange): a real HTTP server on
 * localhost that verifies `Tillpoint-Signature` the way docs/webhooks.md tells merchants to.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** How to answer the next requests: a status each, then 200 forever. */
  script: number[] = [];
  /** When set, requests are held unanswered (to simulate a slow receiver). */
  hold = false;
  secret = '';
  onRequest: ((webhook: ReceivedWebhook) => void) | null = null;
  private server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const signature = String(request.headers['tillpoint-signature'] ?? '');
        const parts = Object.fromEntries(signature.split(',').map((kv) => kv.split('=') as [string, string]));
        const timestamp = Number(parts.t);
        const expected = createHmac('sha256', this.secret).update(`${parts.t}.${body}`).digest();
        const given = Buffer.from(parts.v1 ?? '', 'hex');
        const status = this.hold ? 0 : (this.script.shift() ?? 200);
        const webhook: ReceivedWebhook = {
          body,
          event: JSON.parse(body),
          signature,
          signatureValid: given.length === expected.length && timingSafeEqual(given, expected),
          timestamp,
          answeredStatus: status,
        };
        this.received.push(webhook);
        this.onRequest?.(webhook);
        if (this.hold) return; // never answer
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : `failing on purpose ${'x'.repeat(2000)}`);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://localhost:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
