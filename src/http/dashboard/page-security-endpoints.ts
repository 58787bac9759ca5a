import { z } from 'zod';
import { TillpointError } from '../../domain/shared/errors';
import type { Deps } from '../../domain/deps';
import { annotateCheckoutPageScript } from '../../domain/checkout-page/use-cases/annotate-checkout-page-script';
import { approveCheckoutPageBaseline } from '../../domain/checkout-page/use-cases/approve-checkout-page-baseline';
import { listCheckoutPageChanges, listCspReports, readCheckoutPageSecurity } from '../../domain/checkout-page/use-cases/read-checkout-page-security';
import { listBody, pageRequest } from '../pagination';
import { inventoryFor, type PageSecurity } from '../routes/checkout-page-scripts';
import { listQuery } from '../schemas';
import { checkoutPageChangeView, cspReportView, inventoryCsv } from '../views/checkout-page-security';
import { unixTime } from '../views/resource';
import { accountEndpoint, accountParam, type DashboardEndpoint } from './dashboard-route';

const tag = 'Dashboard: payment page security';
const base = '/dashboard/api/accounts/:account_id/page-security';
const accountParams = z.strictObject(accountParam);
const digest = z.string().regex(/^[0-9a-f]{64}$/, 'must be the digest of the page version shown');

/**
 * Settings → Payment page security: the script inventory, the page's fingerprint against the
 * approved baseline, detected changes, CSP reports, the assessor's export. Everyone who may read
 * settings sees it; approving a baseline and annotating scripts need `settings.manage` (owner, admin).
 */
export function pageSecurityEndpoints(deps: Deps, security: PageSecurity | undefined): DashboardEndpoint[] {
  const wired = () => {
    if (!security) throw new TillpointError('internal_error', 'Checkout page integrity is not wired into this server');
    return security;
  };
  const summary = async (accountId: string) => {
    const { pageIntegrity, pagePolicy } = wired();
    const [state, current, scripts] = await Promise.all([
      readCheckoutPageSecurity(deps, { accountId }),
      pageIntegrity.current(),
      inventoryFor(deps, accountId, wired()),
    ]);
    return {
      current: { digest: current.digest, fingerprint: current.fingerprint },
      baseline: state.baseline && {
        digest: state.baseline.digest,
        approved_by: state.baseline.approvedBy?.label ?? null,
        approved_at: unixTime(state.baseline.approvedAt),
      },
      matches_baseline: state.baseline?.digest === current.digest,
      open_change: state.openChange && checkoutPageChangeView(state.openChange),
      content_security_policy: pagePolicy(),
      scripts,
    };
  };
  return [
    accountEndpoint(
      {
        method: 'GET',
        url: base,
        tag,
        summary: 'Script inventory, current fingerprint and approved baseline',
        params: accountParams,
        permission: 'settings.read',
      },
      async ({ member }) => summary(member.accountId),
    ),
    accountEndpoint(
      {
        method: 'GET',
        url: `${base}/export.json`,
        tag,
        summary: 'The evidence for an assessor (PCI DSS 6.4.3 / 11.6.1), as JSON',
        params: accountParams,
        permission: 'settings.read',
      },
      async ({ member, reply }) => {
        const body = await summary(member.accountId);
        const changes = await listCheckoutPageChanges(deps, { accountId: member.accountId, page: { limit: 100 } });
        reply.header('content-disposition', `attachment; filename="checkout-page-scripts-${new Date().toISOString().slice(0, 10)}.json"`);
        return { generated_at: unixTime(deps.clock.now()), ...body, changes: changes.data.map(checkoutPageChangeView) };
      },
    ),
    accountEndpoint(
      {
        method: 'GET',
        url: `${base}/export.csv`,
        tag,
        summary: 'The script inventory as CSV, for an assessor',
        params: accountParams,
        permission: 'settings.read',
      },
      async ({ member, reply }) => {
        const scripts = await inventoryFor(deps, member.accountId, wired());
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="checkout-page-scripts-${new Date().toISOString().slice(0, 10)}.csv"`);
        return inventoryCsv(scripts);
      },
    ),
    accountEndpoint(
      {
        method: 'GET',
        url: `${base}/changes`,
        tag,
        summary: 'Detected changes of the checkout page, newest first',
        params: accountParams,
        query: z.strictObject(listQuery),
        permission: 'settings.read',
      },
      async ({ member, query }) =>
        listBody(
          `/dashboard/api/accounts/${member.accountId}/page-security/changes`,
          await listCheckoutPageChanges(deps, { accountId: member.accountId, page: pageRequest(query) }),
          checkoutPageChangeView,
        ),
    ),
    accountEndpoint(
      {
        method: 'GET',
        url: `${base}/csp-reports`,
        tag,
        summary: 'CSP violations reported by shoppers’ browsers (90 days)',
        params: accountParams,
        query: z.strictObject(listQuery),
        permission: 'settings.read',
      },
      async ({ member, query }) =>
        listBody(
          `/dashboard/api/accounts/${member.accountId}/page-security/csp-reports`,
          await listCspReports(deps, { accountId: member.accountId, page: pageRequest(query) }),
          cspReportView,
        ),
    ),
    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/baseline`,
        tag,
        summary: 'Approve the page served now as the baseline (after reviewing an upgrade)',
        params: accountParams,
        body: z.strictObject({ digest }),
        permission: 'settings.manage',
      },
      async ({ member, body }) => {
        const { fingerprint, digest: current } = await wired().pageIntegrity.current();
        const baseline = await approveCheckoutPageBaseline(deps, {
          accountId: member.accountId,
          actor: member.actor,
          fingerprint,
          digest: current,
          reviewedDigest: body.digest,
        });
        return { digest: baseline.digest, approved_by: baseline.approvedBy?.label ?? null, approved_at: unixTime(baseline.approvedAt) };
      },
    ),
    accountEndpoint(
      {
        method: 'POST',
        url: `${base}/scripts/:script_id/note`,
        tag,
        summary: 'The merchant’s own justification of a script (empty removes it)',
        params: z.strictObject({ ...accountParam, script_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/, 'must be a script id from the inventory') }),
        body: z.strictObject({ note: z.string().max(2000) }),
        permission: 'settings.manage',
      },
      async ({ member, params, body }) => {
        const known = wired()
          .pageIntegrity.inventory()
          .some((script) => script.id === params.script_id);
        if (!known) throw new TillpointError('resource_missing', `No such script in the inventory: '${params.script_id}'`, { param: 'script_id' });
        const note = await annotateCheckoutPageScript(deps, { accountId: member.accountId, scriptId: params.script_id, note: body.note, actor: member.actor });
        return { script_id: note.scriptId, merchant_note: note.note || null, updated_by: note.updatedBy, updated_at: unixTime(note.updatedAt) };
      },
    ),
  ];
}
