import type { Deps } from '../../deps';
import type { CheckoutFunnel, DailyPayments } from '../../team/ports';
import type { Scope } from '../../shared/scope';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Overview {
  from: Date;
  before: Date;
  /** One entry per UTC day and currency, every day present (zeros included), oldest first. */
  days: DailyPayments[];
  /** Currencies seen in the period, largest volume first. */
  currencies: string[];
  /** Succeeded or authorized ÷ attempts that reached an outcome; null when there were none. */
  successRate: number | null;
  funnel: CheckoutFunnel;
}

/** Payments volume and counts per day, success rate and the checkout funnel over the last `days` UTC days. */
export async function getOverview(deps: Deps, options: { scope: Scope; days: number }): Promise<Overview> {
  const now = deps.clock.now();
  const before = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const from = new Date(before.getTime() - options.days * DAY_MS);
  const { daily, funnel } = await deps.store.transaction(async (tx) => ({
    daily: await tx.dashboardSearch.dailyPayments(options.scope, from, before),
    funnel: await tx.dashboardSearch.funnel(options.scope, from, before),
  }));
  const volumeBy = new Map<string, number>();
  for (const row of daily) volumeBy.set(row.currency, (volumeBy.get(row.currency) ?? 0) + row.volume);
  const currencies = [...volumeBy.keys()].sort((a, b) => volumeBy.get(b)! - volumeBy.get(a)!);
  const days: DailyPayments[] = [];
  for (let t = from.getTime(); t < before.getTime(); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    for (const currency of currencies) {
      days.push(
        daily.find((row) => row.day === day && row.currency === currency) ?? { day, currency, succeeded: 0, finished: 0, volume: 0 },
      );
    }
  }
  const succeeded = daily.reduce((sum, row) => sum + row.succeeded, 0);
  const finished = daily.reduce((sum, row) => sum + row.finished, 0);
  return { from, before, days, currencies, successRate: finished === 0 ? null : succeeded / finished, funnel };
}
