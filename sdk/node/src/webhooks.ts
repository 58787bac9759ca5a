import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './errors.js';
import type { Event } from './types.js';

/** design.md §9: receivers reject a signature whose timestamp is more than 300 s away. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/**
 * Verifying and making `Tillpoint-Signature` headers: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`
 * keyed with the endpoint secret (`whsec_…`).
 */
export class Webhooks {
  /**
   * Checks that `rawBody` (the exact bytes received, before any JSON parsing) was signed with
   * `secret` less than `toleranceSeconds` ago, and returns the event. Throws a
   * `WebhookSignatureError` otherwise. The comparison takes the same time whatever the bytes.
   */
  constructEvent(
    rawBody: string | Uint8Array,
    signatureHeader: string | string[] | null | undefined,
    secret: string,
    toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
    now: () => number = () => Date.now(),
  ): Event {
    const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
    if (typeof header !== 'string' || header.length === 0) {
      throw new WebhookSignatureError('bad_header', 'No Tillpoint-Signature header: was this request sent by Tillpoint?');
    }
    let timestamp: number | null = null;
    const signatures: string[] = [];
    for (const part of header.split(',')) {
      const [key, value] = part.trim().split('=', 2);
      if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
      if (key === 'v1' && value && /^[0-9a-f]+$/i.test(value)) signatures.push(value.toLowerCase());
    }
    if (timestamp === null || signatures.length === 0) {
      throw new WebhookSignatureError('bad_header', 'The Tillpoint-Signature header has no t=<timestamp> and v1=<signature>');
    }
    const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
    const matches = signatures.some((signature) => {
      const given = Buffer.from(signature, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches) {
      throw new WebhookSignatureError(
        'bad_signature',
        'No signature matches the body and secret: check the endpoint secret, and pass the raw body, not parsed JSON',
      );
    }
    const age = Math.abs(Math.floor(now() / 1000) - timestamp);
    if (age > toleranceSeconds) {
      throw new WebhookSignatureError('stale_timestamp', `The signature is ${age} s old, more than the ${toleranceSeconds} s tolerated`);
    }
    return JSON.parse(body) as Event;
  }

  /** A `Tillpoint-Signature` header for `body`: to sign forwarded events, or to test a receiver. */
  signatureHeader(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
    return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
  }
}
