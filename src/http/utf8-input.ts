import { TillpointError } from '../domain/shared/errors';

/**
 * Request text is UTF-8 or refused. Node decodes invalid bytes to U+FFFD without a word, so
 * `Te\xC0\xAFa` in a line item name would be stored as `Te\uFFFD\uFFFDa`: every body parser of the
 * server decodes with this fatal decoder instead, and a query is checked the same way.
 */
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const notUtf8 = () => new TillpointError('parameter_invalid', 'The request body is not valid UTF-8');

/**
 * A body's bytes as text: valid UTF-8 without a byte order mark (RFC 8259 forbids sending one with
 * JSON; a form or a report has no use for one either), else `400 parameter_invalid`.
 */
export function utf8BodyText(body: Buffer | string): string {
  if (typeof body === 'string') throw new Error('utf8BodyText: parse the body as a buffer');
  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    throw notUtf8();
  }
  if (text.charCodeAt(0) === 0xfeff) {
    throw new TillpointError('parameter_invalid', 'The request body starts with a byte order mark (U+FEFF); send UTF-8 without one');
  }
  return text;
}

/** A `+`-for-space, percent-encoded UTF-8 component of a query or a form, or null when it is not one. */
function decodeComponent(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * The first query parameter of a URL that is not percent-encoded UTF-8 (`?q=%ff`, `?a=%C0%AF`, a
 * lone `%`), as a 400 naming it; null when the whole query is well formed.
 */
export function malformedQueryError(url: string): TillpointError | null {
  const at = url.indexOf('?');
  if (at === -1) return null;
  const query = url.slice(at + 1);
  // The common case (no escapes at all) costs one scan.
  if (!query.includes('%')) return null;
  for (const part of query.split('&')) {
    if (!part.includes('%')) continue;
    const equals = part.indexOf('=');
    const key = decodeComponent(equals === -1 ? part : part.slice(0, equals));
    if (key !== null && (equals === -1 || decodeComponent(part.slice(equals + 1)) !== null)) continue;
    const message = 'is not valid percent-encoded UTF-8';
    if (key === null || key === '') return new TillpointError('parameter_invalid', `A query parameter ${message}`);
    return new TillpointError('parameter_invalid', `${key} ${message}`, { param: key });
  }
  return null;
}

/** An `application/x-www-form-urlencoded` body: its fields, each percent-encoded UTF-8, else 400. */
export function formFields(body: Buffer): Record<string, string> {
  const text = utf8BodyText(body);
  const fields: Array<[string, string]> = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const key = decodeComponent(equals === -1 ? part : part.slice(0, equals));
    const value = equals === -1 ? '' : decodeComponent(part.slice(equals + 1));
    if (key === null) throw new TillpointError('parameter_invalid', 'A form field name is not valid percent-encoded UTF-8');
    if (value === null) throw new TillpointError('parameter_invalid', `${key} is not valid percent-encoded UTF-8`, { param: key });
    fields.push([key, value]);
  }
  return Object.fromEntries(fields);
}
