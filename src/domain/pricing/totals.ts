import { currencyRule } from '../shared/currency';
import { allocate } from '../shared/money';

/*
 * The one place a checkout's totals are computed (docs/pricing.md). Every amount is an integer in
 * the currency's minor unit — a yen for JPY (exponent 0), a cent for USD (2), a fils for KWD and
 * BHD (3) — and every rounding rounds to that unit, half away from zero, with integer (BigInt)
 * arithmetic only. A session is priced by the server from what it stores; the browser never sends
 * an amount.
 */

/** A discount to apply to the whole cart: a percentage, or an amount in the cart's currency. */
export type PricingDiscount = { percentOff: number; amountOff?: undefined } | { amountOff: number; percentOff?: undefined };

/** A tax rate applied to a line: `percentage` with up to 4 decimals (8.875), inclusive or exclusive. */
export interface PricingTaxRate {
  id: string;
  percentage: number;
  inclusive: boolean;
}

export interface PricingLine {
  unitAmount: number;
  quantity: number;
  taxRates?: readonly PricingTaxRate[];
}

export interface PricingInput {
  currency: string;
  lines: readonly PricingLine[];
  discount?: PricingDiscount | null;
  /** The chosen shipping rate's amount; shipping is not taxed and not discounted. */
  shipping?: number | null;
}

/** One tax rate's share of a line (or of the whole cart, summed). */
export interface TaxAmount {
  taxRate: string;
  inclusive: boolean;
  amount: number;
}

export interface PricedLine {
  /** unitAmount × quantity. */
  amountSubtotal: number;
  /** This line's share of the cart's discount. */
  amountDiscount: number;
  /** Every tax of the line, inclusive ones included. */
  amountTax: number;
  /** What the line adds to the total: subtotal − discount + exclusive tax. */
  amountTotal: number;
  taxes: TaxAmount[];
}

/** Stripe's `total_details`. `amountTax` counts inclusive and exclusive taxes alike. */
export interface TotalDetails {
  amountDiscount: number;
  amountShipping: number;
  amountTax: number;
}

export interface Totals {
  lines: PricedLine[];
  /** Σ unitAmount × quantity, before discounts, shipping and taxes. */
  amountSubtotal: number;
  totalDetails: TotalDetails;
  /** What the shopper pays: subtotal − discount + shipping + exclusive taxes. */
  amountTotal: number;
  /** Taxes summed per rate, in the order the rates first appear. */
  taxes: TaxAmount[];
}

/** A percentage with up to `decimals` decimals as an integer count of 10^-decimals percent. */
export function scaledPercentage(percentage: number, decimals: number): number | null {
  const scaled = Math.round(percentage * 10 ** decimals);
  if (!Number.isFinite(percentage) || Math.abs(scaled - percentage * 10 ** decimals) > 1e-6) return null;
  return scaled;
}

/** numerator / denominator, both non-negative, rounded half up to an integer. */
function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** Percent with 2 decimals (12.5 → 1250), as the coupons take it. */
const PERCENT_OFF_SCALE = 10_000n; // 100 % × 10^2
/** Tax percentages with 4 decimals (8.875 → 88750). */
const TAX_SCALE = 1_000_000n; // 100 % × 10^4

/**
 * Prices a cart. Rules, in order (each rounding to the currency's minor unit, half up):
 * 1. each line's subtotal is unitAmount × quantity, exact;
 * 2. a percent discount is rounded once on the cart's subtotal; an amount discount is capped at the
 *    subtotal; either is then spread over the lines in proportion to their subtotals
 *    (largest remainder), so the lines' shares add up to the discount exactly;
 * 3. each tax rate of a line is rounded once per line, on the line's discounted amount: an
 *    exclusive rate adds `net × rate`, an inclusive rate takes out `net × rate / (1 + Σ inclusive
 *    rates of the line)` and adds nothing;
 * 4. shipping is added as it is, neither discounted nor taxed.
 */
export function computeTotals(input: PricingInput): Totals {
  const rule = currencyRule(input.currency);
  if (!rule) throw new RangeError(`unsupported currency ${input.currency}`);
  const subtotals = input.lines.map((line) => {
    if (!Number.isSafeInteger(line.unitAmount) || line.unitAmount < 0) throw new RangeError('unitAmount must be a non-negative integer');
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new RangeError('quantity must be a positive integer');
    return line.unitAmount * line.quantity;
  });
  const amountSubtotal = subtotals.reduce((sum, amount) => sum + amount, 0);

  let amountDiscount = 0;
  const discount = input.discount;
  if (discount && discount.percentOff !== undefined) {
    const scaled = scaledPercentage(discount.percentOff, 2);
    if (scaled === null || scaled < 0 || scaled > 10_000) throw new RangeError('percentOff must be 0–100 with at most 2 decimals');
    amountDiscount = Number(divideRoundingHalfUp(BigInt(amountSubtotal) * BigInt(scaled), PERCENT_OFF_SCALE));
  } else if (discount && discount.amountOff !== undefined) {
    if (!Number.isSafeInteger(discount.amountOff) || discount.amountOff < 0) throw new RangeError('amountOff must be a non-negative integer');
    amountDiscount = Math.min(discount.amountOff, amountSubtotal);
  }
  const discountShares = amountSubtotal > 0 && amountDiscount > 0 ? allocate(amountDiscount, subtotals) : subtotals.map(() => 0);

  const cartTaxes = new Map<string, TaxAmount>();
  const lines: PricedLine[] = input.lines.map((line, i) => {
    const net = BigInt(subtotals[i]! - discountShares[i]!);
    const rates = line.taxRates ?? [];
    const scaledRates = rates.map((rate) => {
      const scaled = scaledPercentage(rate.percentage, 4);
      if (scaled === null || scaled < 0 || scaled > 100 * 10_000) throw new RangeError('percentage must be 0–100 with at most 4 decimals');
      return BigInt(scaled);
    });
    const inclusiveSum = rates.reduce((sum, rate, r) => (rate.inclusive ? sum + scaledRates[r]! : sum), 0n);
    const taxes: TaxAmount[] = rates.map((rate, r) => {
      const amount = rate.inclusive
        ? divideRoundingHalfUp(net * scaledRates[r]!, TAX_SCALE + inclusiveSum)
        : divideRoundingHalfUp(net * scaledRates[r]!, TAX_SCALE);
      return { taxRate: rate.id, inclusive: rate.inclusive, amount: Number(amount) };
    });
    for (const tax of taxes) {
      const seen = cartTaxes.get(tax.taxRate);
      if (seen) seen.amount += tax.amount;
      else cartTaxes.set(tax.taxRate, { ...tax });
    }
    const amountTax = taxes.reduce((sum, tax) => sum + tax.amount, 0);
    const exclusiveTax = taxes.reduce((sum, tax) => (tax.inclusive ? sum : sum + tax.amount), 0);
    return {
      amountSubtotal: subtotals[i]!,
      amountDiscount: discountShares[i]!,
      amountTax,
      amountTotal: Number(net) + exclusiveTax,
      taxes,
    };
  });

  const amountShipping = input.shipping ?? 0;
  if (!Number.isSafeInteger(amountShipping) || amountShipping < 0) throw new RangeError('shipping must be a non-negative integer');
  const amountTax = lines.reduce((sum, line) => sum + line.amountTax, 0);
  const linesTotal = lines.reduce((sum, line) => sum + line.amountTotal, 0);
  return {
    lines,
    amountSubtotal,
    totalDetails: { amountDiscount, amountShipping, amountTax },
    amountTotal: linesTotal + amountShipping,
    taxes: [...cartTaxes.values()],
  };
}
