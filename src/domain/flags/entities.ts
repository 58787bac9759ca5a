import type { Mode } from '../shared/events';

/** A flag's value as OFREP carries it. */
export type FlagValue = boolean | string | number;

/** A feature flag or kill switch of an account and mode (built-in ones exist with their default until set). */
export interface Flag {
  accountId: string;
  mode: Mode;
  key: string;
  value: FlagValue;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ExperimentVariant {
  key: string;
  /** Relative share of sessions, e.g. 50 and 50, or 1, 1 and 2. */
  weight: number;
}

export type ExperimentStatus = 'draft' | 'running' | 'stopped';

/** An A/B test on a checkout-page surface (`exp_…`); its flag key is the surface it varies. */
export interface Experiment {
  id: string;
  accountId: string;
  mode: Mode;
  key: string;
  description: string | null;
  status: ExperimentStatus;
  variants: ExperimentVariant[];
  control: string;
  /** Exposed sessions each variant needs before a winner may be called. */
  plannedSampleSize: number;
  /** Set when the sample size was computed rather than given. */
  baselineConversionRate: number | null;
  minimumDetectableEffect: number | null;
  startedAt: Date | null;
  stoppedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A session that was shown a variant; `convertedAt` is set when that session completes. */
export interface Exposure {
  experimentId: string;
  checkoutSessionId: string;
  variant: string;
  exposedAt: Date;
  convertedAt: Date | null;
}
