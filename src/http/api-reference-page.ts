import { errorCatalogue } from '../domain/errors';
import type { OpenApiDocument } from './openapi';

const escape = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Schema = Record<string, any>;

function typeOf(schema: Schema): string {
  if (schema.enum) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (schema.type === 'array') return `array of ${schema.items ? typeOf(schema.items) : 'any'}`;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return `object of ${typeOf(schema.additionalProperties)}`;
  }
  return schema.type ?? 'any';
}

function rules(schema: Schema): string {
  const parts: string[] = [];
  for (const [key, label] of [
    ['minimum', 'min'],
    ['maximum', 'max'],
    ['minLength', 'min length'],
    ['maxLength', 'max length'],
    ['minItems', 'min items'],
    ['maxItems', 'max items'],
    ['default', 'default'],
    ['format', 'format'],
  ] as const) {
    if (schema[key] !== undefined) parts.push(`${label} ${JSON.stringify(schema[key])}`);
  }
  return parts.join(', ');
}

/** Rows for an object's fields, nested objects flattened as `parent[child]`. */
function fieldRows(schema: Schema, prefix = ''): string {
  const required = new Set<string>(schema.required ?? []);
  return Object.entries<Schema>(schema.properties ?? {})
    .map(([name, property]) => {
      const full = prefix ? `${prefix}[${name}]` : name;
      const nested = property.type === 'array' && property.items?.properties ? property.items : property.properties ? property : null;
      const row = `<tr><td><code>${escape(full)}</code></td><td>${escape(typeOf(property))}</td><td>${required.has(name) ? 'required' : 'optional'}</td><td>${escape(rules(property))}</td></tr>`;
      return row + (nested ? fieldRows(nested, property.type === 'array' ? `${full}[]` : full) : '');
    })
    .join('');
}

const table = (rows: string) =>
  `<table><thead><tr><th>name</th><th>type</th><th></th><th>rules</th></tr></thead><tbody>${rows}</tbody></table>`;

/** The API reference at `/docs`: plain HTML rendered from the OpenAPI document, no scripts. */
export function renderApiReference(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(operations)) {
      const op = raw as Schema;
      const params = (op.parameters as Schema[]).map((p) =>
        p.$ref
          ? `<tr><td><code>Idempotency-Key</code> (header)</td><td>string</td><td>optional</td><td>1–255 printable ASCII; see below</td></tr>`
          : `<tr><td><code>${escape(p.name)}</code> (${escape(p.in)})</td><td>${escape(typeOf(p.schema))}</td><td>${p.required ? 'required' : 'optional'}</td><td>${escape(rules(p.schema))}</td></tr>`,
      );
      const body = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      const id = escape(op.operationId);
      const section = `<section class="op" id="${id}">
  <h3><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>
  <p>${escape(op.summary)}${op.security.length ? '' : ' <em>(no API key)</em>'}</p>
  ${params.length ? `<h4>Parameters</h4>${table(params.join(''))}` : ''}
  ${body ? `<h4>JSON body</h4>${table(fieldRows(body))}` : ''}
  <p class="responses">Answers ${escape(Object.keys(op.responses).join(', '))}.</p>
</section>`;
      const tag = op.tags[0] as string;
      byTag.set(tag, [...(byTag.get(tag) ?? []), section]);
    }
  }
  const nav = [...byTag.keys()].map((tag) => `<li><a href="#${escape(tag.replace(/\W+/g, '-'))}">${escape(tag)}</a></li>`).join('');
  const sections = [...byTag.entries()]
    .map(([tag, ops]) => `<h2 id="${escape(tag.replace(/\W+/g, '-'))}">${escape(tag)}</h2>${ops.join('')}`)
    .join('');
  const errors = Object.entries(errorCatalogue)
    .map(([code, { status, type }]) => `<tr><td>${status}</td><td>${escape(type)}</td><td><code>${escape(code)}</code></td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)} reference</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1f24;background:#fff}
main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 4rem}
h1{margin-top:1rem}h2{border-bottom:1px solid #d0d7de;padding-bottom:.25rem;margin-top:2.5rem}
.op{border:1px solid #d0d7de;border-radius:6px;padding:.25rem 1rem;margin:1rem 0}
.method{display:inline-block;min-width:4rem;text-align:center;border-radius:4px;color:#fff;font-size:.8rem;padding:.1rem .4rem;background:#0a5fb4}
.method.post{background:#1a7f37}.method.delete{background:#b42318}
table{border-collapse:collapse;width:100%;font-size:.9rem;margin:.5rem 0}th,td{text-align:left;border-bottom:1px solid #e5e7eb;padding:.3rem .5rem;vertical-align:top}
code{font-family:ui-monospace,monospace;font-size:.9em;background:#f3f4f6;padding:0 .2rem;border-radius:3px}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;list-style:none}
a{color:#0a5fb4}
</style></head>
<body><main>
<h1>${escape(document.info.title)}</h1>
<p>${escape(document.info.description)}</p>
<p>Authenticate with <code>Authorization: Bearer sk_test_…</code>. Machine-readable: <a href="/v1/openapi.json">OpenAPI 3.1 document</a>.</p>
<nav aria-label="Sections"><ul>${nav}<li><a href="#idempotency">Idempotency</a></li><li><a href="#errors">Errors</a></li></ul></nav>
${sections}
<h2 id="idempotency">Idempotency and rate limits</h2>
<p>Send <code>Idempotency-Key</code> (1–255 printable ASCII characters) on any POST. The same key with the same
method, path and body replays the first answer byte for byte for 24 hours, errors included, with
<code>Idempotent-Replayed: true</code>. Other parameters answer 409 <code>idempotency_key_reused</code>; a request while the
first is still running answers 409 <code>idempotency_key_in_use</code>.
Requests are limited per account to 100 per second in live mode and 25 in test mode; past that, 429 <code>rate_limited</code> with <code>Retry-After</code>.</p>
<h2 id="errors">Errors</h2>
<p>Every error is <code>{"error": {"type", "code", "message", "param"?, "decline_code"?, "request_id"}}</code>.</p>
<table><thead><tr><th>HTTP</th><th>type</th><th>code</th></tr></thead><tbody>${errors}</tbody></table>
</main></body></html>`;
}
