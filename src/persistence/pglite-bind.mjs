// PostgreSQL's Bind message for a prepared statement, built in one buffer: its exact length first,
// then each value written in place. PGlite's own builder grows a buffer value by value through
// private fields, which was a sixth of its thread's time on a statement with a few hundred
// parameters (docs/performance.md, eighth session). Same bytes: unnamed portal, one format code per
// parameter (text, or binary for bytes), results in text.
import { Buffer } from 'node:buffer';

/**
 * @param {string} statement the prepared statement's name
 * @param {Array<string | Uint8Array | ArrayBuffer | null>} values each parameter, serialized
 * @returns {Uint8Array}
 */
export function bindMessage(statement, values) {
  const count = values.length;
  const bytes = new Array(count);
  // Length, portal "" (its NUL), the name and its NUL, format codes, parameters, no result format
  // codes (all text); 'B' comes before the length.
  let length = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 * count + 2 + 2;
  for (let i = 0; i < count; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      length += 4;
    } else if (typeof value === 'string') {
      const size = Buffer.byteLength(value);
      bytes[i] = size;
      length += 4 + size;
    } else {
      const view = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      bytes[i] = view;
      length += 4 + view.byteLength;
    }
  }
  const out = Buffer.allocUnsafe(1 + length);
  out[0] = 0x42;
  let at = out.writeInt32BE(length, 1);
  out[at++] = 0;
  at += out.write(statement, at, 'utf8');
  out[at++] = 0;
  at = out.writeInt16BE(count, at);
  for (let i = 0; i < count; i++) at = out.writeInt16BE(bytes[i] instanceof Uint8Array ? 1 : 0, at);
  at = out.writeInt16BE(count, at);
  for (let i = 0; i < count; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      at = out.writeInt32BE(-1, at);
    } else if (typeof value === 'string') {
      at = out.writeInt32BE(bytes[i], at);
      at += out.write(value, at, 'utf8');
    } else {
      at = out.writeInt32BE(bytes[i].byteLength, at);
      out.set(bytes[i], at);
      at += bytes[i].byteLength;
    }
  }
  out.writeInt16BE(0, at);
  return out;
}
