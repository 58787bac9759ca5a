import type { Deps } from '../../deps';
import type { CheckoutFunnel, DailyPayments } from '../../team/ports';
import type { Scope } from '../../shared/scope';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One currency's payments over a period, by the day each payment was made (docs/dashboard.md,
 * "Figures"). Money in minor units. Voided payments are in no volume.
 */
export interface PeriodFigures {
  /** Captured payments, refunded ones included. */
  succeeded: number;
  /** Gross volume: what the succeeded payments captured. */
  captured: number;
  /** What has been refunded of it so far. */
  refunded: number;
  /** What disputes lost (or accepted, or left to expire) and returned bank debits took back of it so far. */
  lost: number;
  /** Net volume: captured − refunded − lost to disputes and bank returns. */
  net: number;
  /** Authorized and not captured yet: shown apart, in no volume. */
  authorized: number;
  authorizedAmount: number;
  failed: number;
  /** Authorized, then voided: approved, no money taken. */
  voided: number;
}

export interface CurrencyFigures {
  currency: string;
  current: PeriodFigures;
  /** The same figures over the period of the same length just before. */
  previous: PeriodFigures;
}

export type DailyFigures = DailyPayments & { net: number };

export interface Overview {
  from: Date;
  before: Date;
  /** Start of the previous period, which ends at `from`. */
  previousFrom: Date;
  /** One entry per UTC day of the period and currency, every day present (zeros included), oldest first. */
  days: DailyFigures[];
  /** The previous period's days, as many as `days`, for the charts' comparison. */
  previousDays: DailyFigures[];
  /** Currencies seen in either period, largest net volume of the period first. */
  currencies: string[];
  /** One entry per currency, in the order of `currencies`. */
  figures: CurrencyFigures[];
  /** Captured or authorized ÷ captured, authorized, voided or failed; null when there were none. */
  successRate: number | null;
  previousSuccessRate: number | null;
  funnel: CheckoutFunnel;
  /** Per currency: disputed amounts of disputes opened in the period, and lost ones closed in it (apart from refunds). */
  disputes: Array<{ currency: string; disputed: number; lost: number }>;
  previousFunnel: CheckoutFunnel;
}

const noFigures = (): PeriodFigures => ({ succeeded: 0, captured: 0, refunded: 0, lost: 0, net: 0, authorized: 0, authorizedAmount: 0, failed: 0, voided: 0 });

/** Net volume of a day's or a period's payments: what they captured, less refunds and lost disputes. */
const netOf = (row: Pick<DailyPayments, 'captured' | 'refunded' | 'lost'>) => row.captured - row.refunded - row.lost;

function add(figures: PeriodFigures, row: DailyPayments): void {
  figures.succeeded += row.succeeded;
  figures.captured += row.captured;
  figures.refunded += row.refunded;
  figures.lost += row.lost;
  figures.net += netOf(row);
  figures.authorized += row.authorized;
  figures.authorizedAmount += row.authorizedAmount;
  figures.failed += row.failed;
  figures.voided += row.voided;
}

function successRate(rows: DailyPayments[]): number | null {
  const approved = rows.reduce((sum, row) => sum + row.succeeded + row.authorized, 0);
  const finished = rows.reduce((sum, row) => sum + row.succeeded + row.authorized + row.voided + row.failed, 0);
  return finished === 0 ? null : approved / finished;
}

/**
 * The last `days` UTC days (today included) against the `days` before them: per currency gross,
 * refunded and net volume, captured and authorized counts; per day the same; success rate and the
 * checkout funnel.
 */
export async function getOverview(deps: Deps, options: { scope: Scope; days: number }): Promise<Overview> {
  const now = deps.clock.now();
  const before = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const from = new Date(before.getTime() - options.days * DAY_MS);
  const previousFrom = new Date(from.getTime() - options.days * DAY_MS);
  const { daily, funnel, previousFunnel, disputes } = await deps.store.readReplica(async (reader) => ({
    disputes: await reader.disputes.totals(options.scope, from, before),
    daily: await reader.dashboardSearch.dailyPayments(options.scope, previousFrom, before),
    funnel: await reader.dashboardSearch.funnel(options.scope, from, before),
    previousFunnel: await reader.dashboardSearch.funnel(options.scope, previousFrom, from),
  }));
  const firstDay = from.toISOString().slice(0, 10);
  const current = daily.filter((row) => row.day >= firstDay);
  const previous = daily.filter((row) => row.day < firstDay);

  const byCurrency = new Map<string, CurrencyFigures>();
  const figuresOf = (currency: string) => {
    let figures = byCurrency.get(currency);
    if (!figures) byCurrency.set(currency, (figures = { currency, current: noFigures(), previous: noFigures() }));
    return figures;
  };
  for (const row of current) add(figuresOf(row.currency).current, row);
  for (const row of previous) add(figuresOf(row.currency).previous, row);
  const figures = [...byCurrency.values()].sort(
    (a, b) => b.current.net - a.current.net || b.previous.net - a.previous.net || a.currency.localeCompare(b.currency),
  );
  const currencies = figures.map((f) => f.currency);

  /** Each day of a period and each currency, zeros where nothing happened. */
  const daysOf = (rows: DailyPayments[], start: Date, end: Date): DailyFigures[] => {
    const out: DailyFigures[] = [];
    for (let t = start.getTime(); t < end.getTime(); t += DAY_MS) {
      const day = new Date(t).toISOString().slice(0, 10);
      for (const currency of currencies) {
        const row = rows.find((r) => r.day === day && r.currency === currency) ?? {
          day,
          currency,
          succeeded: 0,
          authorized: 0,
          failed: 0,
          voided: 0,
          captured: 0,
          refunded: 0,
          lost: 0,
          authorizedAmount: 0,
        };
        out.push({ ...row, net: netOf(row) });
      }
    }
    return out;
  };
  const days = daysOf(current, from, before);
  const previousDays = daysOf(previous, previousFrom, from);
  return {
    from,
    before,
    previousFrom,
    days,
    previousDays,
    currencies,
    figures,
    successRate: successRate(current),
    previousSuccessRate: successRate(previous),
    funnel,
    previousFunnel,
    disputes,
  };
}
