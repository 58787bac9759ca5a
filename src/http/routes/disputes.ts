import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { acceptDispute } from '../../domain/disputes/use-cases/accept-dispute';
import { addDisputeEvidence } from '../../domain/disputes/use-cases/add-dispute-evidence';
import { getDispute } from '../../domain/disputes/use-cases/get-dispute';
import { listDisputes } from '../../domain/disputes/use-cases/list-disputes';
import { submitDispute } from '../../domain/disputes/use-cases/submit-dispute';
import { EVIDENCE_FILE_MAX_BYTES } from '../../domain/disputes/entities';
import { defineRoute } from '../define-route';
import { disputeListSchema, disputeSchema } from '../response-schemas';
import { disputeEvidenceBody, listDisputesQuery } from '../lifecycle-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';
import { disputeView } from '../views/dispute';

const tag = 'Disputes';

/** A body that carries an evidence file: the file in base64 (4/3 of its size) and the rest. */
export const EVIDENCE_BODY_LIMIT = Math.ceil((EVIDENCE_FILE_MAX_BYTES * 4) / 3) + 64 * 1024;

/** What a body over that limit is told: the file limit the body limit is made for. */
export const EVIDENCE_BODY_LIMIT_NOTE = `an evidence file may be at most ${EVIDENCE_FILE_MAX_BYTES / 1024 / 1024} MB (sent base64, a third larger)`;

/** The evidence of a request body as the use case takes it: the file decoded. */
export function evidenceOf(body: { text?: string; file?: { name: string; type: string; data: string }; category?: string }) {
  return {
    text: body.text,
    category: body.category,
    file: body.file && { name: body.file.name, contentType: body.file.type, content: new Uint8Array(Buffer.from(body.file.data, 'base64')) },
  };
}

/** `/v1/disputes`. */
export async function disputeRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/disputes',
      resource: 'disputes',
      tag,
      summary: 'List disputes, newest first',
      query: listDisputesQuery,
      response: disputeListSchema,
    },
    async ({ query, request }) =>
      listBody(
        '/v1/disputes',
        await listDisputes(deps, { scope: scopeOf(request), page: pageRequest(query), paymentId: query.payment, status: query.status }),
        disputeView,
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/disputes/:id',
      resource: 'disputes',
      tag,
      summary: 'Retrieve a dispute with its evidence',
      params: idParams,
      response: disputeSchema,
    },
    async ({ params, request }) => disputeView(await getDispute(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/disputes/:id',
      resource: 'disputes',
      tag,
      summary: 'Add evidence to a dispute: text, a file, or both',
      description:
        'A file is sent base64 in `file.data`: JPEG, PNG or PDF (checked by its bytes), at most 4 MB. Evidence goes to the processor at once; ' +
        'submit the dispute when the answer is complete. Only a dispute in `needs_response` takes evidence (`dispute_not_open`).',
      params: idParams,
      body: disputeEvidenceBody,
      bodyLimit: EVIDENCE_BODY_LIMIT,
      bodyLimitNote: EVIDENCE_BODY_LIMIT_NOTE,
      response: disputeSchema,
      errors: [502, 504],
    },
    async ({ params, body, request }) =>
      disputeView(await addDisputeEvidence(deps, { scope: scopeOf(request), id: params.id, actor: keyActorOf(request), ...evidenceOf(body) })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/disputes/:id/accept',
      resource: 'disputes',
      tag,
      summary: 'Accept a dispute: give the money up without answering',
      params: idParams,
      response: disputeSchema,
      errors: [502, 504],
    },
    async ({ params, request }) => disputeView(await acceptDispute(deps, { scope: scopeOf(request), id: params.id, actor: keyActorOf(request) })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/disputes/:id/submit',
      resource: 'disputes',
      tag,
      summary: 'Submit the evidence: the dispute goes under review and the bank decides',
      params: idParams,
      response: disputeSchema,
      errors: [502, 504],
    },
    async ({ params, request }) => disputeView(await submitDispute(deps, { scope: scopeOf(request), id: params.id, actor: keyActorOf(request) })),
  );
}
