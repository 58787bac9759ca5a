import type { DailyFigures, Overview, PeriodFigures } from '../../domain/payments/use-cases/get-overview';

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

function figuresView(f: PeriodFigures) {
  return {
    succeeded: f.succeeded,
    captured: f.captured,
    refunded: f.refunded,
    lost: f.lost,
    net: f.net,
    authorized: f.authorized,
    authorized_amount: f.authorizedAmount,
    failed: f.failed,
    voided: f.voided,
  };
}

function dayView(d: DailyFigures) {
  return { day: d.day, currency: d.currency, ...figuresView(d) };
}

/** The Overview page's figures; days are inclusive `YYYY-MM-DD` UTC dates, money in minor units. */
export function overviewView(overview: Overview) {
  return {
    from: isoDay(overview.from),
    to: isoDay(new Date(overview.before.getTime() - DAY_MS)),
    previous_from: isoDay(overview.previousFrom),
    previous_to: isoDay(new Date(overview.from.getTime() - DAY_MS)),
    currencies: overview.currencies,
    figures: overview.figures.map((f) => ({ currency: f.currency, current: figuresView(f.current), previous: figuresView(f.previous) })),
    days: overview.days.map(dayView),
    previous_days: overview.previousDays.map(dayView),
    success_rate: overview.successRate,
    previous_success_rate: overview.previousSuccessRate,
    funnel: overview.funnel,
    previous_funnel: overview.previousFunnel,
    disputes: overview.disputes,
  };
}
