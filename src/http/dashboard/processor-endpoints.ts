import { z } from 'zod';
import { TillpointError } from '../../domain/shared/errors';
import type { ProcessorSettingsDeps } from '../../domain/processors/processor-config';
import { checkProcessorConfig } from '../../domain/processors/use-cases/check-processor-config';
import { setProcessorConfig } from '../../domain/processors/use-cases/set-processor-config';
import { showProcessorConfig } from '../../domain/processors/use-cases/show-processor-config';
import { modeEndpoint, type DashboardEndpoint } from './dashboard-route';
import { base, scopeParams } from './mode-endpoints';

const tag = 'Dashboard: processor';

/** The private key is write-only: it is sent to be stored encrypted and never comes back. */
const processorBody = z.discriminatedUnion('processor', [
  z.strictObject({ processor: z.literal('test') }),
  z.strictObject({
    processor: z.literal('braintree'),
    environment: z.enum(['sandbox', 'production', 'development']),
    merchant_id: z.string().max(100),
    public_key: z.string().max(100),
    private_key: z.string().max(100),
    merchant_accounts: z.record(z.string().max(3), z.string().max(100)).default({}),
    google_pay_merchant_id: z.string().max(40).nullable().optional(),
    require_three_d_secure: z.boolean().default(false),
    require_cvv_for_saved_cards: z.boolean().default(false),
  }),
]);

/**
 * Processor credentials of one mode, and "check connection": the same use cases as
 * `tillpoint processor set|show|check`, guarded by `processor.manage`.
 */
export function processorEndpoints(settings: ProcessorSettingsDeps | undefined): DashboardEndpoint[] {
  const deps = () => {
    if (!settings) throw new TillpointError('internal_error', 'Processor settings are not wired into this server');
    return settings;
  };
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/processor`,
        tag,
        summary: 'The processor of this mode (never the private key)',
        params: scopeParams,
        permission: 'processor.manage',
      },
      async ({ scope }) => showProcessorConfig(deps(), { accountId: scope.accountId, mode: scope.mode }),
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/processor`,
        tag,
        summary: 'Use the test processor, or Braintree with these credentials, in this mode',
        params: scopeParams,
        body: processorBody,
        permission: 'processor.manage',
      },
      async ({ body, scope, member }) => {
        const { accountId, mode } = scope;
        if (body.processor === 'test') await setProcessorConfig(deps(), { accountId, mode, actor: member.actor, processor: 'test' });
        else {
          await setProcessorConfig(deps(), {
            accountId,
            mode,
            actor: member.actor,
            processor: 'braintree',
            braintree: {
              environment: body.environment,
              merchantId: body.merchant_id,
              publicKey: body.public_key,
              privateKey: body.private_key,
              merchantAccounts: body.merchant_accounts,
              googlePayMerchantId: body.google_pay_merchant_id ?? null,
              requireThreeDSecure: body.require_three_d_secure,
              requireCvvForSavedCards: body.require_cvv_for_saved_cards,
            },
          });
        }
        return showProcessorConfig(deps(), { accountId, mode });
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/processor/check`,
        tag,
        summary: "Try this mode's processor credentials against the gateway and say what is wrong",
        params: scopeParams,
        permission: 'processor.manage',
      },
      async ({ scope }) => checkProcessorConfig(deps(), { accountId: scope.accountId, mode: scope.mode }),
    ),
  ];
}
