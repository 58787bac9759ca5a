import { describe, expect, it } from 'vitest';
import { computeTotals } from './totals';

// Every expected figure below is worked out by hand in the comment above it (docs/pricing.md).

const vat = (percentage: number, inclusive = false, id = 'txr_vat') => ({ id, percentage, inclusive });

describe('computeTotals', () => {
  it('zero-decimal JPY: percent discount spread over lines, exclusive tax rounded per line to the yen', () => {
    // subtotal 1980×2 + 500 = 4460; 15 % off = 669 (exact);
    // shares 669×3960/4460 = 594, 669×500/4460 = 75; nets 3366 and 425;
    // 10 % tax: 336.6 → 337, 42.5 → 43 (half up); total 3366 + 425 + 380 = 4171
    const totals = computeTotals({
      currency: 'JPY',
      lines: [
        { unitAmount: 1980, quantity: 2, taxRates: [vat(10)] },
        { unitAmount: 500, quantity: 1, taxRates: [vat(10)] },
      ],
      discount: { percentOff: 15 },
    });
    expect(totals.amountSubtotal).toBe(4460);
    expect(totals.lines.map((line) => [line.amountDiscount, line.amountTax, line.amountTotal])).toEqual([
      [594, 337, 3703],
      [75, 43, 468],
    ]);
    expect(totals.totalDetails).toEqual({ amountDiscount: 669, amountShipping: 0, amountTax: 380 });
    expect(totals.amountTotal).toBe(4171);
    expect(totals.taxes).toEqual([{ taxRate: 'txr_vat', inclusive: false, amount: 380 }]);
  });

  it('JPY: a percentage that leaves half a yen rounds the discount up', () => {
    // 10 % of 1005 = 100.5 → 101; total 904
    const totals = computeTotals({ currency: 'JPY', lines: [{ unitAmount: 1005, quantity: 1 }], discount: { percentOff: 10 } });
    expect(totals.totalDetails.amountDiscount).toBe(101);
    expect(totals.amountTotal).toBe(904);
  });

  it('three-decimal KWD: amount discount, exclusive tax to the fils, shipping added untaxed', () => {
    // 1.234 × 3 = 3.702 KWD = 3702 fils; 0.500 off → 3202; 5 % = 160.1 → 160 fils;
    // shipping 1.000 = 1000 fils; total 3202 + 160 + 1000 = 4362 (4.362 KWD)
    const totals = computeTotals({
      currency: 'KWD',
      lines: [{ unitAmount: 1234, quantity: 3, taxRates: [vat(5)] }],
      discount: { amountOff: 500 },
      shipping: 1000,
    });
    expect(totals.amountSubtotal).toBe(3702);
    expect(totals.totalDetails).toEqual({ amountDiscount: 500, amountShipping: 1000, amountTax: 160 });
    expect(totals.amountTotal).toBe(4362);
  });

  it('three-decimal BHD: inclusive tax is taken out of the price, not added to it', () => {
    // 5.500 BHD incl. 10 %: 5500 × 10/110 = 500 fils; 1.999 BHD: 1999 × 10/110 = 181.7 → 182 fils
    const totals = computeTotals({
      currency: 'BHD',
      lines: [
        { unitAmount: 5500, quantity: 1, taxRates: [vat(10, true)] },
        { unitAmount: 1999, quantity: 1, taxRates: [vat(10, true)] },
      ],
    });
    expect(totals.lines.map((line) => line.amountTax)).toEqual([500, 182]);
    expect(totals.totalDetails.amountTax).toBe(682);
    expect(totals.amountTotal).toBe(7499);
  });

  it('USD: inclusive tax on a discounted line is computed on what is left after the discount', () => {
    // 120.00 incl. 20 %, 25 % off → 90.00; tax 9000 × 20/120 = 1500; total 9000
    const totals = computeTotals({
      currency: 'USD',
      lines: [{ unitAmount: 12000, quantity: 1, taxRates: [vat(20, true)] }],
      discount: { percentOff: 25 },
    });
    expect(totals.totalDetails).toEqual({ amountDiscount: 3000, amountShipping: 0, amountTax: 1500 });
    expect(totals.amountTotal).toBe(9000);
  });

  it('USD: fractional percent off and a four-decimal tax rate', () => {
    // 12.5 % of 19.99 = 2.49875 → 250; net 1749; 8.875 % = 155.22 → 155; total 1904
    const totals = computeTotals({
      currency: 'USD',
      lines: [{ unitAmount: 1999, quantity: 1, taxRates: [vat(8.875)] }],
      discount: { percentOff: 12.5 },
    });
    expect(totals.totalDetails).toEqual({ amountDiscount: 250, amountShipping: 0, amountTax: 155 });
    expect(totals.amountTotal).toBe(1904);
  });

  it('two exclusive rates on one line are each rounded on the same net, not compounded', () => {
    // 10.05 with 5 % (50.25 → 50) and 9.975 % (100.24 → 100): tax 150, total 1155
    const totals = computeTotals({
      currency: 'CAD',
      lines: [{ unitAmount: 1005, quantity: 1, taxRates: [vat(5, false, 'txr_gst'), vat(9.975, false, 'txr_qst')] }],
    });
    expect(totals.lines[0]!.taxes).toEqual([
      { taxRate: 'txr_gst', inclusive: false, amount: 50 },
      { taxRate: 'txr_qst', inclusive: false, amount: 100 },
    ]);
    expect(totals.amountTotal).toBe(1155);
  });

  it('an amount discount spreads its remainder so the shares add up exactly', () => {
    // 1.00 off three lines of 1.00: 33.33… each → 34, 33, 33
    const totals = computeTotals({
      currency: 'EUR',
      lines: [1, 2, 3].map(() => ({ unitAmount: 100, quantity: 1 })),
      discount: { amountOff: 100 },
    });
    expect(totals.lines.map((line) => line.amountDiscount)).toEqual([34, 33, 33]);
    expect(totals.amountTotal).toBe(200);
  });

  it('an amount discount larger than the cart is capped at the subtotal; shipping still counts', () => {
    const totals = computeTotals({ currency: 'GBP', lines: [{ unitAmount: 700, quantity: 1 }], discount: { amountOff: 5000 }, shipping: 399 });
    expect(totals.totalDetails).toEqual({ amountDiscount: 700, amountShipping: 399, amountTax: 0 });
    expect(totals.amountTotal).toBe(399);
  });

  it('without options the total is the subtotal', () => {
    const totals = computeTotals({ currency: 'USD', lines: [{ unitAmount: 1650, quantity: 2 }] });
    expect(totals.amountTotal).toBe(3300);
    expect(totals.totalDetails).toEqual({ amountDiscount: 0, amountShipping: 0, amountTax: 0 });
  });

  it('refuses percentages with more decimals than the rule allows', () => {
    expect(() => computeTotals({ currency: 'USD', lines: [{ unitAmount: 100, quantity: 1 }], discount: { percentOff: 12.345 } })).toThrow(RangeError);
    expect(() => computeTotals({ currency: 'USD', lines: [{ unitAmount: 100, quantity: 1, taxRates: [vat(8.12345)] }] })).toThrow(RangeError);
  });
});
