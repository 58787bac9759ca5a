import { TillpointError } from '../shared/errors';
import { paymentStatusBadges, type PaymentStatusBadge } from '../payments/status-badge';
import { MAX_AMOUNT, currencyRule } from '../shared/currency';
import { paymentMethodTypes, type PaymentMethodType } from '../payments/payment-method-types';

/**
 * The query language of `GET /v1/payments/search` (docs/api.md, "Searching payments"), Stripe's
 * shape: clauses joined by `AND`, each `field:'value'` (exact), `field~'value'` (email: starts or ends with;
 * id: starts with), or `field>n`, `field<n`, `field>=n`, `field<=n` on `amount` (minor units) and
 * `created` (Unix seconds). Metadata is `metadata['key']:'value'`.
 */
export type PaymentSearchClause =
  | { field: 'id'; op: 'exact' | 'prefix'; value: string }
  | { field: 'email'; op: 'exact' | 'part'; value: string }
  | { field: 'last4'; value: string }
  | { field: 'status'; value: PaymentStatusBadge }
  | { field: 'currency'; value: string }
  | { field: 'payment_method_type'; value: PaymentMethodType }
  | { field: 'client_reference_id'; value: string }
  | { field: 'checkout_session'; value: string }
  | { field: 'metadata'; key: string; value: string }
  | { field: 'amount'; op: Comparison; value: number }
  | { field: 'created'; op: Comparison; value: Date };

export type Comparison = '=' | '>' | '<' | '>=' | '<=';

export const MAX_QUERY_LENGTH = 1000;
export const MAX_CLAUSES = 10;
const MAX_VALUE_LENGTH = 200;

const textFields = ['id', 'email', 'last4', 'status', 'currency', 'payment_method_type', 'client_reference_id', 'checkout_session'] as const;
const numberFields = ['amount', 'created'] as const;
export const searchableFields = [...textFields, ...numberFields, 'metadata'] as const;

function invalid(message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param: 'query' });
}

/** A tiny scanner over the query text; `at` is where the next token starts. */
class Scanner {
  at = 0;
  constructor(readonly text: string) {}
  skipSpaces() {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }
  done() {
    this.skipSpaces();
    return this.at >= this.text.length;
  }
  match(pattern: RegExp): string | null {
    const found = new RegExp(`^(?:${pattern.source})`, pattern.flags).exec(this.text.slice(this.at));
    if (!found) return null;
    this.at += found[0].length;
    return found[0];
  }
  fail(what: string): never {
    throw invalid(`Invalid search query at character ${this.at + 1}: expected ${what}`);
  }
  /** A quoted string ('…' or "…", backslash escapes the quote or a backslash). */
  quoted(): string {
    const quote = this.text[this.at];
    if (quote !== "'" && quote !== '"') this.fail(`a quoted value such as 'value'`);
    let value = '';
    for (let i = this.at + 1; i < this.text.length; i++) {
      const c = this.text[i]!;
      if (c === '\\' && i + 1 < this.text.length) {
        value += this.text[++i];
        continue;
      }
      if (c === quote) {
        this.at = i + 1;
        if (value.length > MAX_VALUE_LENGTH) throw invalid(`Invalid search query: a value may have at most ${MAX_VALUE_LENGTH} characters`);
        return value;
      }
      value += c;
    }
    return this.fail(`the closing ${quote}`);
  }
}

/** Parses a query of `GET /v1/payments/search`; a bad query is a `parameter_invalid` on `query`. */
export function parsePaymentSearchQuery(text: string): PaymentSearchClause[] {
  if (text.length > MAX_QUERY_LENGTH) throw invalid(`A search query may have at most ${MAX_QUERY_LENGTH} characters`);
  const s = new Scanner(text);
  if (s.done()) throw invalid("The search query is empty: give at least one clause such as status:'succeeded'");
  const clauses: PaymentSearchClause[] = [];
  for (;;) {
    s.skipSpaces();
    clauses.push(clause(s));
    if (clauses.length > MAX_CLAUSES) throw invalid(`A search query may have at most ${MAX_CLAUSES} clauses`);
    const end = s.at;
    if (s.done()) return clauses;
    if (s.at === end) s.fail('a space and AND between clauses');
    const joiner = s.match(/[A-Za-z]+/);
    if (joiner?.toUpperCase() === 'OR') throw invalid('OR is not supported in a search query: join clauses with AND');
    if (joiner !== 'AND') s.fail('AND between clauses');
    if (!s.match(/\s+/)) s.fail('a space after AND');
  }
}

function clause(s: Scanner): PaymentSearchClause {
  const field = s.match(/[a-z_0-9]+/);
  if (!field) s.fail(`a field (${searchableFields.join(', ')})`);
  if (field === 'metadata') {
    if (!s.match(/\[/)) s.fail(`metadata['key']`);
    const key = s.quoted();
    if (!key) throw invalid('Invalid search query: a metadata key may not be empty');
    if (!s.match(/\]/)) s.fail(']');
    if (!s.match(/:/)) s.fail(`: after metadata['${key}']`);
    return { field: 'metadata', key, value: s.quoted() };
  }
  if ((numberFields as readonly string[]).includes(field)) {
    const op = s.match(/>=|<=|>|<|:/);
    if (!op) s.fail(`one of : > < >= <= after ${field}`);
    const raw = s.match(/-?\d+/) ?? (s.text[s.at] === "'" || s.text[s.at] === '"' ? s.quoted() : null);
    if (raw === null || !/^\d+$/.test(raw)) s.fail(`a whole number after ${field}${op}`);
    const n = Number(raw);
    const comparison: Comparison = op === ':' ? '=' : (op as Comparison);
    if (field === 'amount') {
      if (n > MAX_AMOUNT) throw invalid(`Invalid search query: amount may be at most ${MAX_AMOUNT} (minor units)`);
      return { field: 'amount', op: comparison, value: n };
    }
    if (n > 253402300799) throw invalid('Invalid search query: created must be Unix seconds');
    return { field: 'created', op: comparison, value: new Date(n * 1000) };
  }
  if (!(textFields as readonly string[]).includes(field)) {
    throw invalid(`Invalid search query: unknown field ${field}; fields are ${searchableFields.join(', ')}`);
  }
  const op = s.match(/[:~]/);
  if (!op) s.fail(`: or ~ after ${field}`);
  const value = s.quoted();
  if (op === '~' && field !== 'email' && field !== 'id') throw invalid(`Invalid search query: ~ works on email and id only`);
  switch (field) {
    case 'id':
      if (!value) throw invalid('Invalid search query: id needs a value');
      return { field: 'id', op: op === '~' ? 'prefix' : 'exact', value };
    case 'email':
      if (op === '~' && value.length < 3) throw invalid('Invalid search query: email~ needs at least 3 characters');
      return { field: 'email', op: op === '~' ? 'part' : 'exact', value };
    case 'last4':
      if (!/^\d{4}$/.test(value)) throw invalid('Invalid search query: last4 must be 4 digits');
      return { field: 'last4', value };
    case 'status':
      if (!(paymentStatusBadges as readonly string[]).includes(value)) {
        throw invalid(`Invalid search query: status must be one of ${paymentStatusBadges.join(', ')}`);
      }
      return { field: 'status', value: value as PaymentStatusBadge };
    case 'currency': {
      const rule = currencyRule(value.toUpperCase());
      if (!rule) throw invalid(`Invalid search query: ${value} is not a supported currency`);
      return { field: 'currency', value: rule.code };
    }
    case 'payment_method_type':
      if (!(paymentMethodTypes as readonly string[]).includes(value)) {
        throw invalid(`Invalid search query: payment_method_type must be one of ${paymentMethodTypes.join(', ')}`);
      }
      return { field: 'payment_method_type', value: value as PaymentMethodType };
    case 'client_reference_id':
      return { field: 'client_reference_id', value };
    default:
      return { field: 'checkout_session', value };
  }
}
