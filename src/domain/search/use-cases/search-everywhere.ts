import type { Deps } from '../../deps';
import type { Scope } from '../../shared/scope';
import { can, type Role } from '../../team/permissions';
import type { SearchHit } from '../../team/ports';
import { searchKinds, searchTermsOf, type SearchKind } from '../search-terms';

/**
 * The dashboard's search box: the newest `limitPerKind` objects of each kind the role may read
 * that match the text read as every kind of term. Roles that see emails masked search no emails
 * (finding a payment by address would tell them who paid).
 */
export async function searchEverywhere(deps: Deps, options: { scope: Scope; text: string; role: Role; limitPerKind: number }): Promise<SearchHit[]> {
  const terms = searchTermsOf(options.text, can(options.role, 'customers.read_email'));
  const kinds = (Object.keys(searchKinds) as SearchKind[]).filter((kind) => can(options.role, searchKinds[kind].permission));
  return deps.store.readReplica((reader) => reader.dashboardSearch.everywhere(options.scope, kinds, terms, options.limitPerKind));
}
