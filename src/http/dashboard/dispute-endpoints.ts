import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { acceptDispute } from '../../domain/disputes/use-cases/accept-dispute';
import { addDisputeEvidence } from '../../domain/disputes/use-cases/add-dispute-evidence';
import { getDispute } from '../../domain/disputes/use-cases/get-dispute';
import { listDisputeInbox } from '../../domain/disputes/use-cases/list-dispute-inbox';
import { submitDispute } from '../../domain/disputes/use-cases/submit-dispute';
import { disputeEvidenceBody } from '../lifecycle-schemas';
import { EVIDENCE_BODY_LIMIT, EVIDENCE_BODY_LIMIT_NOTE, evidenceOf } from '../routes/disputes';
import { disputeView } from '../views/dispute';
import { modeEndpoint, type DashboardEndpoint } from './dashboard-route';
import { base, objectParams } from './mode-endpoints';
import { disputeInboxSchema } from './response-schemas';
import { disputeSchema } from '../response-schemas';

const tag = 'Dashboard: disputes';
const modeParams = objectParams.omit({ id: true });
const inboxQuery = z.strictObject({
  payment: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/)
    .optional(),
});

/**
 * The Disputes inbox and a dispute's page: reading needs `payments.read`; evidence
 * `disputes.evidence` (support too); submit and accept `disputes.respond` (owner, admin). The
 * merchant API's use cases, each success audited against the member.
 */
export function disputeEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/disputes`,
        response: disputeInboxSchema,
        tag,
        summary: 'Open disputes by reply-by (soonest first), then closed ones; or one payment’s disputes',
        params: modeParams,
        query: inboxQuery,
        permission: 'payments.read',
      },
      async ({ query, scope }) => ({ data: (await listDisputeInbox(deps, { scope, paymentId: query.payment })).map(disputeView) }),
    ),
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/disputes/:id`,
        response: disputeSchema,
        tag,
        summary: 'A dispute with its evidence',
        params: objectParams,
        permission: 'payments.read',
      },
      async ({ params, scope }) => disputeView(await getDispute(deps, { scope, id: params.id })),
    ),
    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/disputes/:id/evidence`,
        tag,
        summary: 'Add text or a file to the answer',
        params: objectParams,
        body: disputeEvidenceBody,
        bodyLimit: EVIDENCE_BODY_LIMIT,
        bodyLimitNote: EVIDENCE_BODY_LIMIT_NOTE,
        permission: 'disputes.evidence',
      },
      async ({ params, body, scope, member }) =>
        disputeView(await addDisputeEvidence(deps, { scope, id: params.id, actor: member.actor, ...evidenceOf(body) })),
    ),
    modeEndpoint(
      { method: 'POST', url: `${base}/disputes/:id/submit`, tag, summary: 'Submit the answer', params: objectParams, permission: 'disputes.respond' },
      async ({ params, scope, member }) => disputeView(await submitDispute(deps, { scope, id: params.id, actor: member.actor })),
    ),
    modeEndpoint(
      { method: 'POST', url: `${base}/disputes/:id/accept`, tag, summary: 'Accept the dispute', params: objectParams, permission: 'disputes.respond' },
      async ({ params, scope, member }) => disputeView(await acceptDispute(deps, { scope, id: params.id, actor: member.actor })),
    ),
  ];
}
