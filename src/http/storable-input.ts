import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { TillpointError } from '../domain/shared/errors';
import { paramName } from './errors';
import { malformedQueryError } from './utf8-input';

/**
 * Characters PostgreSQL cannot keep in `text` or `jsonb`: NUL, and a UTF-16 surrogate without its
 * other half (it has no UTF-8 form). Refused before a use case runs, so the database never sees them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what PostgreSQL cannot store, and what this finds.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * How deep a request's JSON may nest. Our deepest input is three levels (`line_items[0][name]`);
 * the bound keeps a hostile body (6,000 nested arrays) away from code that recurses over input.
 */
export const MAX_INPUT_DEPTH = 32;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** A key as a parameter name may show it: its unstorable characters written as `\uXXXX`. */
function printableKey(key: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is written out as \\u0000, like a lone surrogate.
  return key.replace(/[\u0000\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

type Finding = { path: PropertyKey[]; problem: 'text' | 'depth' };

/** A value waiting to be looked at: its parent's entry and its key there (the root has neither). */
interface Visit {
  value: unknown;
  parent: Visit | null;
  key: PropertyKey;
  depth: number;
}

/** The keys from the root down to `visit`, then `last` when given. */
function pathOf(visit: Visit, last?: PropertyKey): PropertyKey[] {
  const path: PropertyKey[] = last === undefined ? [] : [last];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * The first string (object keys included) holding an unstorable character, or the first value nested
 * deeper than MAX_INPUT_DEPTH, in document order. Iterative, so no input can exhaust the stack; a
 * path is put together only for what is found, as every request's body passes through here.
 */
export function findUnstorable(value: unknown): Finding | null {
  const stack: Visit[] = [{ value, parent: null, key: '', depth: 0 }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return { path: pathOf(visit), problem: 'text' };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (visit.depth >= MAX_INPUT_DEPTH) return { path: pathOf(visit), problem: 'depth' };
    const depth = visit.depth + 1;
    // Children go on the stack last to first, so the first comes off first (document order).
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], parent: visit, key: index, depth });
    } else {
      const keys = Object.keys(current);
      for (const key of keys) if (!isStorableText(key)) return { path: pathOf(visit, printableKey(key)), problem: 'text' };
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (current as Record<string, unknown>)[keys[i]!], parent: visit, key: keys[i]!, depth });
    }
  }
  return null;
}

function refusal(finding: Finding, nameDepth: number | null): TillpointError {
  if (finding.problem === 'depth') {
    // Named by its field when the body is an object; an array at the root names nothing.
    const field = finding.path[0];
    const deep = `nested more than ${MAX_INPUT_DEPTH} levels deep`;
    if (typeof field !== 'string') return new TillpointError('parameter_invalid', `The request body is ${deep}`);
    return new TillpointError('parameter_invalid', `Invalid ${field}: ${deep}`, { param: field });
  }
  const param = paramName(nameDepth === null ? finding.path : finding.path.slice(0, nameDepth));
  const unstorable = 'must not contain the NUL character (U+0000) or an unpaired UTF-16 surrogate';
  if (!param) return new TillpointError('parameter_invalid', `The request body ${unstorable}`);
  return new TillpointError('parameter_invalid', `Invalid ${param}: ${unstorable}`, { param });
}

/** The first unstorable character of a request's path parameters, query and body, as a 400 naming it. */
export function unstorableInputError(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): TillpointError | null {
  // Path and query parameters are flat: named by their key alone, even when repeated (`?a=1&a=2`).
  for (const part of [request.params, request.query]) {
    const finding = findUnstorable(part);
    if (finding) return refusal(finding, 1);
  }
  const finding = findUnstorable(request.body);
  return finding ? refusal(finding, null) : null;
}

/**
 * A `preValidation` hook for every route: a query that is not percent-encoded UTF-8 is refused, and
 * NUL and unpaired surrogates in any path parameter, query parameter or body field (at any depth,
 * keys included), before a handler runs. (Bodies that are not UTF-8 are refused by their parser.)
 */
export function refuseUnstorableInput(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const error = malformedQueryError(request.url) ?? unstorableInputError(request);
  if (error) {
    done(error);
    return;
  }
  done();
}
