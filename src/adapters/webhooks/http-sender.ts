import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isForbiddenAddress } from './address-policy';
import type { WebhookSender, WebhookSendResult } from '../../domain/webhooks/ports';

const RESPONSE_LOG_BYTES = 1024;

/**
 * Resolves like the system does, but refuses private addresses. Because the connection uses the
 * addresses checked here, a DNS answer cannot change between the check and the connect (rebinding).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    if (addresses.length === 0 || addresses.some((a) => isForbiddenAddress(a.address))) {
      const refused = Object.assign(new Error(`${hostname} resolves to a private, loopback or link-local address`), {
        code: 'EADDRFORBIDDEN',
      });
      return callback(refused, '', 0);
    }
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * Posts webhooks over node:http(s): no redirects followed, a hard deadline, the first 1 KB of the
 * answer kept for the delivery log. In live mode the SSRF rules are applied again at send time.
 */
export function httpWebhookSender(): WebhookSender {
  return {
    send({ url, mode, body, headers, timeoutMs, signal }) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      return new Promise<WebhookSendResult>((resolve) => {
        let settled = false;
        let deadline: NodeJS.Timeout | undefined;
        let cut: (() => void) | undefined;
        const finish = (result: WebhookSendResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          // One signal serves every send of a worker: a listener left behind would be kept forever.
          if (cut) signal?.removeEventListener('abort', cut);
          resolve(result);
        };
        const fail = (error: string, status: number | null = null, text: string | null = null) =>
          finish({ ok: false, status, body: text, durationMs: elapsed(), error });

        let target: URL;
        try {
          target = new URL(url);
        } catch {
          return fail('invalid URL');
        }
        const literal = target.hostname.replace(/^\[|\]$/g, '');
        if (mode === 'live' && (target.protocol !== 'https:' || (isIP(literal) !== 0 && isForbiddenAddress(literal)))) {
          return fail('refused: live webhooks go only to public https addresses');
        }
        const client = target.protocol === 'https:' ? https : http;
        const request = client.request(target, {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Tillpoint-Webhooks/1.0',
          },
          ...(mode === 'live' ? { lookup: publicOnlyLookup } : {}),
        });
        deadline = setTimeout(() => request.destroy(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs);
        if (signal) {
          cut = () => request.destroy(new Error('cut short: the server is shutting down'));
          if (signal.aborted) cut();
          else signal.addEventListener('abort', cut, { once: true });
        }
        request.on('error', (error) => fail(error.message));
        request.on('response', (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          const done = () => {
            const status = response.statusCode ?? 0;
            const text = Buffer.concat(chunks).subarray(0, RESPONSE_LOG_BYTES).toString('utf8');
            if (status >= 200 && status < 300) finish({ ok: true, status, body: text, durationMs: elapsed() });
            else fail(`receiver answered HTTP ${status}`, status, text);
          };
          response.on('data', (chunk: Buffer) => {
            if (kept < RESPONSE_LOG_BYTES) {
              chunks.push(chunk);
              kept += chunk.length;
            }
            // Enough for the log: do not download the rest of a large answer.
            if (kept >= RESPONSE_LOG_BYTES) {
              done();
              response.destroy();
            }
          });
          response.on('end', done);
          response.on('error', () => done());
        });
        request.end(body);
      });
    },
  };
}
