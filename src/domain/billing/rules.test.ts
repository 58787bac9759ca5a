import { describe, expect, it } from 'vitest';
import type { InvoiceLine, SubscriptionDiscount } from './entities';
import { discountAt, priceInvoice, subscriptionDiscount } from './rules';

const line = (amount: number, proration = false): InvoiceLine => ({
  id: 'il_1',
  description: 'x',
  amount,
  priceId: 'price_1',
  quantity: 1,
  proration,
  periodStart: 0,
  periodEnd: 1,
});
const coupon = { id: 'coupon_1', name: null, percentOff: 25, amountOff: null, currency: null };
const discount = (duration: 'once' | 'repeating' | 'forever', months: number | null = null) =>
  subscriptionDiscount({ coupon, promotionCode: null }, { duration, durationInMonths: months }, new Date(Date.UTC(2027, 0, 31, 9)));
const salesTax = { id: 'txr_1', percentage: 8.25, inclusive: false };

describe('priceInvoice', () => {
  it('prices the lines with their prorations as one amount: the percentage and the tax rounded once, the total adding up', () => {
    // 50.00 − 13.33 unused + 33.33 remaining = 70.00; 25 % off = 17.50; tax on 52.50 = 4.33125 → 4.33.
    const priced = priceInvoice('USD', [line(-1333, true), line(3333, true), line(5000)], { discount: discount('forever'), taxRates: [salesTax] });
    expect(priced).toMatchObject({ subtotal: 7000, tax: 433, total: 7000 - 1750 + 433 });
    expect(priced.totalDiscountAmounts).toEqual([{ amount: 1750, couponId: 'coupon_1', promotionCodeId: null }]);
    expect(priced.totalTaxAmounts).toEqual([{ amount: 433, inclusive: false, taxRateId: 'txr_1' }]);
  });

  it('takes no discount or tax off lines that come to nothing or less', () => {
    const credit = priceInvoice('USD', [line(-3000, true), line(1000)], { discount: discount('forever'), taxRates: [salesTax] });
    expect(credit).toMatchObject({ subtotal: -2000, tax: 0, total: -2000, totalDiscountAmounts: [], totalTaxAmounts: [] });
  });

  it('adds shipping as its own line, neither discounted nor taxed', () => {
    const shipping = { ...line(400), priceId: null, description: 'Shipping' };
    const priced = priceInvoice('USD', [line(2000)], { discount: discount('forever'), taxRates: [salesTax], shipping });
    // 20.00 − 5.00 = 15.00; tax 1.2375 → 1.24; + 4.00 shipping.
    expect(priced).toMatchObject({ subtotal: 2400, tax: 124, total: 1500 + 124 + 400 });
    expect(priced.lines.map((l) => l.amount)).toEqual([2000, 400]);
  });
});

describe('subscription discounts', () => {
  it('a repeating discount ends its months later, counted as periods are: 31 January + 1 month is 28 February', () => {
    const oneMonth: SubscriptionDiscount = discount('repeating', 1);
    expect(oneMonth.end).toBe(Date.UTC(2027, 1, 28, 9) / 1000);
    expect(discountAt(oneMonth, new Date(Date.UTC(2027, 1, 28, 8, 59)))).toBe(oneMonth);
    expect(discountAt(oneMonth, new Date(Date.UTC(2027, 1, 28, 9)))).toBeNull();
    expect(discountAt(oneMonth, new Date(Date.UTC(2027, 0, 31, 8)))).toBeNull();
    expect(discount('forever').end).toBeNull();
    expect(discount('once').end).toBeNull();
  });
});
