import type { Command } from 'commander';
import { TillpointError } from '../domain/shared/errors';
import type { Mode } from '../domain/shared/events';
import type { BraintreeEnvironment } from '../domain/processors/processor-config';
import { checkProcessorConfig } from '../domain/processors/use-cases/check-processor-config';
import { setProcessorConfig } from '../domain/processors/use-cases/set-processor-config';
import { showProcessorConfig } from '../domain/processors/use-cases/show-processor-config';
import { databaseCommand, type DatabaseCommand } from './database-command';

interface ScopeOptions {
  account: string;
  mode: string;
  json?: boolean;
}

function modeOf(value: string): Mode {
  if (value !== 'test' && value !== 'live') throw new TillpointError('parameter_invalid', '--mode must be test or live', { param: 'mode' });
  return value;
}

/** `--merchant-account USD=acct` may repeat; commander collects it here. */
function collectMerchantAccount(value: string, previous: Record<string, string>): Record<string, string> {
  const match = /^([A-Za-z]{3})=(.+)$/.exec(value);
  if (!match) throw new Error(`--merchant-account takes CURRENCY=ID, e.g. USD=myshop_usd (got '${value}')`);
  return { ...previous, [match[1]!.toUpperCase()]: match[2]! };
}

type BraintreeOptions = ScopeOptions & {
  environment: string;
  merchantId: string;
  publicKey: string;
  privateKey: string;
  merchantAccount: Record<string, string>;
  googlePayMerchantId?: string;
  require3ds?: boolean;
  requireCvv?: boolean;
};

const setTest = databaseCommand<ScopeOptions>({
  name: 'processor set test',
  async run(context, options, io) {
    const { processorSettings } = await context.open();
    await setProcessorConfig(processorSettings, { accountId: options.account, mode: modeOf(options.mode), processor: 'test', actor: null });
    const view = await showProcessorConfig(processorSettings, { accountId: options.account, mode: modeOf(options.mode) });
    io.out(options.json ? JSON.stringify(view) : `The ${view.mode} mode of ${view.account} now uses the built-in test processor.`);
  },
});

const setBraintree = databaseCommand<BraintreeOptions>({
  name: 'processor set braintree',
  async run(context, options, io) {
    const { processorSettings } = await context.open();
    if (!['sandbox', 'production', 'development'].includes(options.environment)) {
      throw new TillpointError('parameter_invalid', '--environment must be sandbox or production', { param: 'environment' });
    }
    const mode = modeOf(options.mode);
    await setProcessorConfig(processorSettings, {
      accountId: options.account,
      mode,
      actor: null,
      processor: 'braintree',
      braintree: {
        environment: options.environment as BraintreeEnvironment,
        merchantId: options.merchantId,
        publicKey: options.publicKey,
        privateKey: options.privateKey,
        merchantAccounts: options.merchantAccount,
        googlePayMerchantId: options.googlePayMerchantId ?? null,
        requireThreeDSecure: Boolean(options.require3ds),
        requireCvvForSavedCards: Boolean(options.requireCvv),
      },
    });
    const view = await showProcessorConfig(processorSettings, { accountId: options.account, mode });
    io.out(
      options.json
        ? JSON.stringify(view)
        : `The ${mode} mode of ${view.account} now uses Braintree (${options.environment}). Run \`tillpoint processor check --account ${view.account} --mode ${mode}\` to try the credentials.`,
    );
  },
});

const show = databaseCommand<ScopeOptions>({
  name: 'processor show',
  async run(context, options, io) {
    const { processorSettings } = await context.open();
    const view = await showProcessorConfig(processorSettings, { accountId: options.account, mode: modeOf(options.mode) });
    if (options.json) {
      io.out(JSON.stringify(view));
      return 0;
    }
    const lines = [`Account ${view.account}, ${view.mode} mode: ${view.processor === 'none' ? 'no processor' : view.processor}`];
    if (view.braintree) {
      const b = view.braintree;
      lines.push(
        `  environment:            ${b.environment}`,
        `  merchant id:            ${b.merchant_id}`,
        `  public key:             ${b.public_key}`,
        '  private key:            set (encrypted)',
        `  merchant accounts:      ${
          Object.entries(b.merchant_accounts)
            .map(([c, id]) => `${c}=${id}`)
            .join(', ') || 'the default merchant account'
        }`,
        `  Google Pay merchant id: ${b.google_pay_merchant_id ?? '—'}`,
        `  3-D Secure required:    ${b.require_three_d_secure ? 'yes' : 'no'}`,
        `  CVV for saved cards:    ${b.require_cvv_for_saved_cards ? 'asked again' : 'not asked'}`,
      );
    }
    io.out(lines.join('\n'));
  },
});

const check = databaseCommand<ScopeOptions>({
  name: 'processor check',
  async run(context, options, io) {
    const { processorSettings } = await context.open();
    const result = await checkProcessorConfig(processorSettings, { accountId: options.account, mode: modeOf(options.mode) });
    if (options.json) io.out(JSON.stringify(result));
    else if (result.ok) io.out(`OK: the ${result.processor} processor accepts these settings.`);
    else io.out([`Problems with the ${result.processor} settings:`, ...result.problems.map((p) => `  - [${p.kind}] ${p.message}`)].join('\n'));
    return result.ok ? 0 : 1;
  },
});

/** `tillpoint processor set | show | check`: the owner's processor settings, per account and mode. */
export function registerProcessorCommands(program: Command, run: <O extends object>(command: DatabaseCommand<O>, options: O) => Promise<void>) {
  const processor = program.command('processor').description("an account's payment processor per mode (test or braintree)");
  const set = processor.command('set').description('choose the processor for an account and mode');
  const scoped = (command: Command) =>
    command
      .requiredOption('--account <id>', 'the account id (acct_…)')
      .requiredOption('--mode <mode>', 'test or live')
      .option('--json', 'print JSON instead of text');

  scoped(set.command('test').description('use the built-in test processor (test mode only)')).action((options: ScopeOptions) => run(setTest, options));

  scoped(set.command('braintree').description('use Braintree (credentials from Control Panel → Settings → API)'))
    .requiredOption('--environment <env>', 'sandbox or production (development: the SDK gateway at localhost:GATEWAY_PORT)')
    .requiredOption('--merchant-id <id>', 'Braintree merchant id')
    .requiredOption('--public-key <key>', 'API public key')
    .requiredOption('--private-key <key>', 'API private key (stored encrypted with TILLPOINT_SECRET_KEY; never shown again)')
    .option('--merchant-account <CURRENCY=ID>', 'merchant account per currency; repeat for each currency', collectMerchantAccount, {})
    .option('--google-pay-merchant-id <id>', "Google's merchant id (required for Google Pay in production)")
    .option('--require-3ds', 'refuse card payments without successful 3-D Secure authentication')
    .option('--require-cvv', "ask a saved card's CVV again on the checkout page (when the account's CVV rules refuse vaulted sales without one)")
    .action((options: BraintreeOptions) => run(setBraintree, options));

  scoped(processor.command('show').description('show the processor settings (never the private key)')).action((options: ScopeOptions) => run(show, options));

  scoped(processor.command('check').description('try the credentials against the processor and say what is wrong')).action((options: ScopeOptions) =>
    run(check, options),
  );
}
