import type { Command } from 'commander';
import { TillpointError } from '../domain/shared/errors';
import { createPasswordResetLink } from '../domain/team/use-cases/create-password-reset-link';
import { createSetupLink } from '../domain/team/use-cases/create-setup-link';
import { defaultSetupAccount } from '../runtime/demo';
import { databaseCommand, type DatabaseCommand } from './database-command';

/**
 * The operator's ways into the dashboard: `tillpoint setup-link` (a new owner of an account, the
 * demo account by default) and `tillpoint password-reset-link` (a user locked out of their password).
 * Both are database commands: with `tillpoint serve` up on the embedded database they run in it.
 */

interface SetupLinkOptions {
  account?: string;
  json?: boolean;
}

const setupLink = databaseCommand<SetupLinkOptions>({
  name: 'setup-link',
  async run(context, options, io) {
    // Opened first: it brings a fresh database's schema up to date.
    const { deps } = await context.open();
    const accountId = options.account ?? (await defaultSetupAccount(context.db));
    if (!accountId) {
      throw new TillpointError('parameter_missing', 'This install has several accounts and no demo account: name one with --account acct_…', {
        param: 'account',
      });
    }
    const link = await createSetupLink(deps, { accountId });
    if (options.json) {
      io.out(JSON.stringify({ url: link.url, account: accountId, expires_at: Math.floor(link.expiresAt.getTime() / 1000) }));
    } else {
      io.out(
        `Setup link for ${link.accountName} (${accountId}): ${link.url}\n` +
          `Open it to create an owner's sign-in on this account. It works once, until ${link.expiresAt.toISOString()}; earlier setup links of the account no longer work.`,
      );
    }
  },
});

interface ResetLinkOptions {
  email: string;
  json?: boolean;
}

const passwordResetLink = databaseCommand<ResetLinkOptions>({
  name: 'password-reset-link',
  async run(context, options, io) {
    const link = await createPasswordResetLink((await context.open()).deps, { by: null, email: options.email });
    if (options.json) {
      io.out(JSON.stringify({ url: link.url, email: link.email, expires_at: Math.floor(link.expiresAt.getTime() / 1000) }));
    } else {
      io.out(`Password reset link for ${link.email}: ${link.url}\nIt works once, until ${link.expiresAt.toISOString()}.`);
    }
  },
});

export function registerAccessCommands(program: Command, run: <O extends object>(command: DatabaseCommand<O>, options: O) => Promise<void>): void {
  program
    .command('setup-link')
    .description("print a one-time link (24 h) that creates an owner's sign-in on the demo account, or on --account")
    .option('--account <id>', 'the account to claim (default: the demo account, or the only account)')
    .option('--json', 'print JSON instead of text')
    .action((options: SetupLinkOptions) => run(setupLink, options));
  program
    .command('password-reset-link')
    .description('print a one-time link (24 h) that sets a new password for a dashboard user')
    .requiredOption('--email <email>', "the user's email")
    .option('--json', 'print JSON instead of text')
    .action((options: ResetLinkOptions) => run(passwordResetLink, options));
}
