import type { Mode } from './events';

/** An account and a mode: the boundary nothing crosses. */
export interface Scope {
  accountId: string;
  mode: Mode;
}
