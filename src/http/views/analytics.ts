import type { Analytics } from '../../domain/payments/use-cases/get-analytics';
import { experimentResultsView } from './experiment';

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The Analytics view; days are inclusive `YYYY-MM-DD` UTC dates, rates between 0 and 1. */
export function analyticsView(a: Analytics) {
  return {
    from: isoDay(a.from),
    to: isoDay(new Date(a.before.getTime() - DAY_MS)),
    funnel: a.funnel,
    payment_methods: a.methods.map((m) => ({
      payment_method: m.method,
      finished: m.finished,
      approved: m.approved,
      success_rate: m.finished === 0 ? null : m.approved / m.finished,
    })),
    decline_reasons: a.declines,
    three_d_secure: a.threeDSecure,
    experiments: a.experiments.map(({ experiment, ...results }) => experimentResultsView(experiment, results)),
  };
}
