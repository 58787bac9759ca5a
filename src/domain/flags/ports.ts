import type { Scope } from '../shared/scope';
import type { Flag, Experiment, Exposure } from './entities';

/** What flag evaluation reads for an account and mode: its flags and its running experiments. */
export interface FlagState {
  stored: Flag[];
  running: Experiment[];
  /**
   * Set when the state holds only these keys' flags and experiments (paying reads the built-in
   * flags alone, however many custom flags the scope has): any other key is read afresh.
   */
  keys?: readonly string[];
}

export interface FlagRepository {
  list(scope: Scope): Promise<Flag[]>;
  /**
   * `list` and `experiments.running` of the scope, in one statement: what flag evaluation reads.
   * With `keys`, those keys' only (the state says so), in no particular order; read outside a
   * transaction, the reads of many scopes made at once share one statement.
   */
  listWithRunningExperiments(scope: Scope, keys?: readonly string[]): Promise<FlagState>;
  get(scope: Scope, key: string): Promise<Flag | null>;
  insert(flag: Flag): Promise<void>;
  update(flag: Flag): Promise<void>;
}

export interface ExperimentRepository {
  insert(experiment: Experiment): Promise<void>;
  get(scope: Scope, id: string, options?: { forUpdate?: boolean }): Promise<Experiment | null>;
  /** Newest first, cursor-paginated like every list. */
  list(scope: Scope, filter: { limit: number; startingAfter?: string }): Promise<Experiment[]>;
  /** Throws `ExperimentKeyBusyError` when another experiment on the same key is already running. */
  update(experiment: Experiment): Promise<void>;
  running(scope: Scope): Promise<Experiment[]>;
}

export interface ExposureRepository {
  /** Records that a session saw a variant; false when it was already recorded (idempotent). */
  insert(exposure: Exposure): Promise<boolean>;
  /** Marks every exposure of the session as converted, once. */
  markConverted(checkoutSessionId: string, at: Date): Promise<void>;
  tally(experimentId: string): Promise<Array<{ variant: string; exposed: number; conversions: number }>>;
}

/** Raised by the store when a second experiment on one key would run at the same time. */
export class ExperimentKeyBusyError extends Error {
  constructor(readonly key: string) {
    super(`another experiment on ${key} is already running`);
    this.name = 'ExperimentKeyBusyError';
  }
}

/**
 * Flags as the server reads them (through OpenFeature: our own store, or an external OFREP
 * service when one is configured). A flag that cannot be read yields the default.
 */
export interface FlagReader {
  booleanValue(scope: Scope, key: string, defaultValue: boolean, targetingKey?: string): Promise<boolean>;
  stringValue(scope: Scope, key: string, defaultValue: string, targetingKey?: string): Promise<string>;
  /**
   * The scope's flags of `keys` read once, now: a reader whose evaluations of those keys use that
   * read (paying evaluates its kill switch and 3-D Secure at one moment; payments made at once
   * share the read's statement); any other key is read afresh. Only readers over Tillpoint's own
   * store have it: an external flag service is asked at each evaluation.
   */
  read?(scope: Scope, keys: readonly string[]): Promise<FlagReader>;
}
