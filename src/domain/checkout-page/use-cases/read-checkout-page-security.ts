import { readPage, type Page, type PageRequest } from '../../shared/pagination';
import type { Deps } from '../../deps';
import type { CheckoutPageBaseline, CheckoutPageChange, CspReport, ScriptNote } from '../entities';

/** The account's approved baseline, its open change if any, and its notes on the inventory's scripts. */
export async function readCheckoutPageSecurity(
  deps: Deps,
  options: { accountId: string },
): Promise<{ baseline: CheckoutPageBaseline | null; openChange: CheckoutPageChange | null; notes: ScriptNote[] }> {
  return deps.store.read(async (reader) => ({
    baseline: await reader.checkoutPage.baseline(options.accountId),
    openChange: await reader.checkoutPage.openChange(options.accountId),
    notes: await reader.checkoutPage.notes(options.accountId),
  }));
}

/** The account's detected changes, newest first. */
export async function listCheckoutPageChanges(deps: Deps, options: { accountId: string; page: PageRequest }): Promise<Page<CheckoutPageChange>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.checkoutPage.listChanges(options.accountId, page)));
}

/** The account's CSP violation reports of the last 90 days, newest first. */
export async function listCspReports(deps: Deps, options: { accountId: string; page: PageRequest }): Promise<Page<CspReport>> {
  return readPage(options.page, (page) => deps.store.readReplica((reader) => reader.checkoutPage.listCspReports(options.accountId, page)));
}
