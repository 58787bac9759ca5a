import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { receiveProcessorNotification } from '../../domain/disputes/use-cases/receive-processor-notification';
import { TillpointError } from '../../domain/shared/errors';
import { defineRoute } from '../define-route';
import { formFields } from '../utf8-input';

/** The path Braintree posts its webhook notifications to, one per account; `?mode=` names the mode. */
export const BRAINTREE_NOTIFICATION_PATH = '/webhooks/braintree/:account';

/** The URL to give Braintree's Control Panel for an account and mode. */
export function braintreeNotificationUrl(publicUrl: string, accountId: string, mode: 'test' | 'live'): string {
  return `${publicUrl}/webhooks/braintree/${accountId}?mode=${mode}`;
}

const params = z.strictObject({ account: z.string().regex(/^[A-Za-z0-9_]{1,64}$/) });
const query = z.strictObject({ mode: z.enum(['test', 'live']) });
// Braintree posts a form with these two fields (and nothing else we read).
const body = z.object({ bt_signature: z.string().min(1).max(10_000), bt_payload: z.string().min(1).max(1_000_000) });

/**
 * `POST /webhooks/braintree/:account?mode=…`: Braintree's notifications (disputes, local payments; `check` when the
 * merchant tests the URL). The SDK verifies the signature with the account's keys; what is refused
 * (unknown account, a signature that does not verify, a dispute of an unknown transaction) is
 * answered with the catalogue's error and logged. Not part of the merchant API's contract.
 */
export async function processorNotificationRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, raw, done) => done(null, formFields(raw as Buffer)));
  defineRoute(
    app,
    {
      method: 'POST',
      url: BRAINTREE_NOTIFICATION_PATH,
      tag: 'Processor notifications',
      summary: "Braintree's webhook notifications",
      params,
      query,
      body,
      internal: true,
    },
    async ({ params, query, body, request }) => {
      const scope = { accountId: params.account, mode: query.mode };
      try {
        const received = await receiveProcessorNotification(deps, {
          scope,
          processor: 'braintree',
          signature: body.bt_signature,
          payload: body.bt_payload,
        });
        request.log.info(
          {
            account: scope.accountId,
            mode: scope.mode,
            kind: received.kind,
            outcome: received.recorded?.outcome ?? received.localPayment ?? received.bankDebit ?? 'ignored',
          },
          'Braintree notification received',
        );
        return { received: true };
      } catch (error) {
        if (error instanceof TillpointError) {
          request.log.warn({ account: scope.accountId, mode: scope.mode, code: error.code, reason: error.message }, 'Braintree notification refused');
        }
        throw error;
      }
    },
  );
}
