/**
 * The one scrubber for everything that leaves a process or a browser for the error-reporting
 * service: events, breadcrumbs, requests and whole envelopes. Pure and dependency-free so that the
 * checkout page and the server import the same code.
 *
 * It removes card numbers (any Luhn-valid run of 12–19 digits, however it is separated), CVCs,
 * emails, payment method nonces and tokens, Authorization headers, cookies, API keys and webhook
 * secrets. It errs on the side of masking: a long order number that happens to pass Luhn is masked
 * too, which costs a little debugging comfort and never a card number.
 */

export const FILTERED = '[Filtered]';

/** Object keys whose whole value is sensitive, whatever it looks like. */
const SENSITIVE_KEY =
  /^(?:number|card_?number|cardnumber|pan|cvc|cvv|cvv2|cid|security_?code|csc|exp(?:iry|iration)?_?(?:date)?|nonce|payment_?method_?nonce|device_?data|token|access_?token|refresh_?token|authorization|proxy-authorization|cookie|cookies|set-cookie|x-api-key|api_?key|secret|client_?secret|password|passwd|email|e-?mail|customer_?email|webhook_?secret|private_?key)$/i;

/** Keys of Sentry's own envelope and event structure that are ids, never shopper data. */
const STRUCTURAL_KEY = /^(?:event_id|trace_id|span_id|parent_span_id|sid|did|sdk|release|environment|timestamp|start_timestamp|started|sent_at|dsn)$/;

const textPatterns: Array<[RegExp, string]> = [
  // Authorization header values wherever they were copied into text.
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${FILTERED}`],
  [/\b(?:sk|pk|rk)_(?:test|live)_[A-Za-z0-9]+/g, '[api_key]'],
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, '[webhook_secret]'],
  // Braintree nonces (tokencc_…, tokengp_…) and our test processor's, which share the shape.
  [/\btoken[a-z]{2,12}_[A-Za-z0-9_-]+/g, '[nonce]'],
  [/\bfake-[a-z0-9-]*nonce\b/gi, '[nonce]'],
  [/[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, '[email]'],
  // `cvc=123` or `"cvc":"123"` inside a URL, a query string or a serialized body.
  [/((?:cvc|cvv|cvv2|security_?code)["']?\s*[:=]\s*["']?)\d{3,4}/gi, `$1${FILTERED}`],
];

/** Characters that may separate the digits of a card number as people and forms write them. */
function separatorLength(text: string, at: number): number {
  if (text.startsWith('%20', at)) return 3;
  const c = text[at];
  return c === ' ' || c === '-' || c === '.' || c === '+' || c === '_' || c === '\u00a0' ? 1 : 0;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Masks every digit that belongs to a Luhn-valid window of 12–19 digits inside a run of digits
 * joined by at most three separators. Windows are checked inside longer runs too, so a card number
 * glued to other digits is still found.
 */
export function maskCardNumbers(text: string): string {
  const masked = new Set<number>();
  let i = 0;
  while (i < text.length) {
    if (!isDigit(text[i])) {
      i++;
      continue;
    }
    const positions: number[] = [];
    let j = i;
    for (;;) {
      positions.push(j);
      j++;
      if (isDigit(text[j])) continue;
      let k = j;
      let separators = 0;
      while (separators < 3) {
        const length = separatorLength(text, k);
        if (!length) break;
        k += length;
        separators++;
      }
      if (separators > 0 && isDigit(text[k])) {
        j = k;
        continue;
      }
      break;
    }
    if (positions.length >= 12) {
      const digits = positions.map((p) => text[p]).join('');
      for (let start = 0; start + 12 <= digits.length; start++) {
        for (let length = 12; length <= 19 && start + length <= digits.length; length++) {
          if (luhnValid(digits.slice(start, start + length))) {
            for (let p = start; p < start + length; p++) masked.add(positions[p]!);
          }
        }
      }
    }
    i = j;
  }
  if (!masked.size) return text;
  let out = '';
  for (let p = 0; p < text.length; p++) out += masked.has(p) ? '*' : text[p];
  return out;
}

/** Scrubs free text: messages, URLs, serialized bodies, stack frames' variables. */
export function scrubText(text: string): string {
  // Patterns first: an email or a nonce holding a digit run must be recognised before its digits
  // are masked out of shape.
  let out = text;
  for (const [pattern, replacement] of textPatterns) out = out.replace(pattern, replacement);
  return maskCardNumbers(out);
}

/**
 * Scrubs any JSON-like value: sensitive keys lose their value, every other string is scrubbed as
 * text (keys too, since a query string can become an object key). Returns a copy.
 */
export function scrubValue<T>(value: T, depth = 0): T {
  if (depth > 40) return FILTERED as T;
  if (typeof value === 'string') return scrubText(value) as T;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1)) as T;
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (SENSITIVE_KEY.test(key) && inner !== null && inner !== undefined && inner !== '') {
        out[key] = FILTERED;
      } else if (STRUCTURAL_KEY.test(key) && typeof inner !== 'object') {
        out[key] = inner;
      } else {
        out[scrubText(key)] = scrubValue(inner, depth + 1);
      }
    }
    return out as T;
  }
  return value;
}

/** A Sentry envelope as the SDKs hand it to their transport: `[headers, [[itemHeaders, payload], …]]`. */
export type EnvelopeLike = [Record<string, unknown>, Array<[Record<string, unknown>, unknown]>];

/**
 * The last line of defence, at the transport: every item's payload is scrubbed again, whatever
 * produced it (events, sessions, client reports, anything a future integration adds). Binary
 * payloads are decoded, scrubbed as text and re-encoded.
 */
export function scrubEnvelope<E>(envelope: E): E {
  const [headers, items] = envelope as unknown as EnvelopeLike;
  const scrubbedItems = items.map(([itemHeaders, payload]) => {
    if (payload instanceof Uint8Array) {
      const text = new TextDecoder().decode(payload);
      return [itemHeaders, new TextEncoder().encode(scrubText(text))] as const;
    }
    return [itemHeaders, scrubValue(payload)] as const;
  });
  return [headers, scrubbedItems] as unknown as E;
}
