import type { PageRequest } from '../shared/pagination';
import type { CheckoutPageBaseline, CheckoutPageChange, ChangeResolution, CspReport, ScriptNote } from './entities';

export interface CheckoutPageIntegrityRepository {
  baseline(accountId: string, options?: { forUpdate?: boolean }): Promise<CheckoutPageBaseline | null>;
  saveBaseline(baseline: CheckoutPageBaseline): Promise<void>;
  /** Saves the baseline unless the account has one already; false when it had. */
  saveFirstBaseline(baseline: CheckoutPageBaseline): Promise<boolean>;
  /** Accounts whose baseline is missing or differs from `digest` and that have no open change for `digest` yet. */
  accountsToCompare(digest: string, limit: number): Promise<string[]>;
  openChange(accountId: string): Promise<CheckoutPageChange | null>;
  insertChange(change: CheckoutPageChange): Promise<void>;
  resolveOpenChanges(accountId: string, at: Date, resolution: ChangeResolution): Promise<number>;
  listChanges(accountId: string, page: PageRequest): Promise<CheckoutPageChange[]>;
  insertCspReport(report: CspReport): Promise<void>;
  listCspReports(accountId: string, page: PageRequest): Promise<CspReport[]>;
  purgeCspReportsBefore(at: Date): Promise<number>;
  notes(accountId: string): Promise<ScriptNote[]>;
  saveNote(note: ScriptNote): Promise<void>;
}
