import { currencyRule, MAX_AMOUNT } from '../shared/currency';
import { TillpointError } from '../shared/errors';
import { newId } from '../shared/ids';
import { checkMetadata } from '../shared/metadata';
import type { Scope } from '../shared/scope';
import { blankOf } from '../shared/resource-shape';
import { MAX_INTERVAL_COUNT, priceIntervals, prices, type Price, type PriceInterval, type Product } from './entities';

/** What a price is made with (`POST /v1/prices`, or a product's `default_price_data`). */
export interface NewPrice {
  currency: string;
  unitAmount: number;
  /** Renews every `intervalCount` (default 1) `interval`s; absent for a one-time price. */
  recurring?: { interval: string; intervalCount?: number } | null;
  nickname?: string | null;
  metadata?: Record<string, string>;
  active?: boolean;
}

/** What `POST /v1/prices/:id` may change: never the amount, currency or interval. */
export interface PriceChanges {
  active?: boolean;
  /** `null` or an empty string clears it. */
  nickname?: string | null;
  /** Merged into the price's own; an empty value removes its key (Stripe's rule). */
  metadata?: Record<string, string>;
}

export const NICKNAME_MAX = 250;

function invalid(param: string, message: string): TillpointError {
  return new TillpointError('parameter_invalid', message, { param });
}

/** A nickname trimmed, empty as null; `at` names its parameter. */
function nicknameOf(nickname: string | null | undefined, at: string): string | null {
  const trimmed = nickname?.trim() || null;
  if (trimmed !== null && trimmed.length > NICKNAME_MAX) throw invalid(at, `nickname must be at most ${NICKNAME_MAX} characters`);
  return trimmed;
}

/**
 * A new price of `product`, checked: a supported currency, an amount from 0 to the most a payment
 * may be, and an interval of day/week/month/year renewing at most a year apart.
 * `at` prefixes the parameters named on a refusal (`default_price_data`), empty for `POST /v1/prices`.
 */
export function buildPrice(input: NewPrice, product: Pick<Product, 'id'>, scope: Scope, now: Date, at = ''): Price {
  const param = (name: string) => (at ? `${at}[${name}]` : name);
  const rule = currencyRule(input.currency);
  if (!rule) throw new TillpointError('currency_not_supported', `Currency '${input.currency}' is not supported`, { param: param('currency') });
  if (!Number.isSafeInteger(input.unitAmount) || input.unitAmount < 0) {
    throw invalid(param('unit_amount'), 'unit_amount must be a non-negative integer in minor units');
  }
  if (input.unitAmount > MAX_AMOUNT) {
    throw new TillpointError('amount_too_large', `unit_amount must be at most ${MAX_AMOUNT}`, { param: param('unit_amount') });
  }
  let interval: PriceInterval | null = null;
  let intervalCount: number | null = null;
  if (input.recurring) {
    const given = input.recurring.interval;
    if (!(priceIntervals as readonly string[]).includes(given)) {
      throw invalid(recurringParam(at, 'interval'), `interval must be one of ${priceIntervals.join(', ')}`);
    }
    interval = given as PriceInterval;
    intervalCount = input.recurring.intervalCount ?? 1;
    const most = MAX_INTERVAL_COUNT[interval];
    if (!Number.isInteger(intervalCount) || intervalCount < 1 || intervalCount > most) {
      throw invalid(
        recurringParam(at, 'interval_count'),
        `interval_count must be from 1 to ${most} when interval is ${interval}: renewals are at most a year apart`,
      );
    }
  }
  const metadata = input.metadata ?? {};
  checkMetadata(metadata);
  return {
    ...blankOf(prices),
    id: newId('price', 16),
    accountId: scope.accountId,
    mode: scope.mode,
    productId: product.id,
    currency: rule.code,
    unitAmount: input.unitAmount,
    active: input.active ?? true,
    createdAt: now,
    recurringInterval: interval,
    recurringIntervalCount: intervalCount,
    nickname: nicknameOf(input.nickname, param('nickname')),
    metadata,
  };
}

/** `recurring[name]`, under `at` when given (`default_price_data[recurring][name]`). */
function recurringParam(at: string, name: string): string {
  return at ? `${at}[recurring][${name}]` : `recurring[${name}]`;
}

/** The price `changes` make of `price`: its amount, currency and interval never change. */
export function applyPriceChanges(price: Price, changes: PriceChanges): Price {
  const next: Price = { ...price };
  if (changes.active !== undefined) next.active = changes.active;
  if (changes.nickname !== undefined) next.nickname = nicknameOf(changes.nickname, 'nickname');
  if (changes.metadata !== undefined) {
    checkMetadata(changes.metadata);
    const merged = { ...price.metadata, ...changes.metadata };
    for (const [key, value] of Object.entries(merged)) if (value === '') delete merged[key];
    checkMetadata(merged);
    next.metadata = merged;
  }
  return next;
}
