import type { SandboxBankAccountBehavior } from '../../../domain/processors/sandbox-ports';

/**
 * The test US bank accounts (docs/test-processor.md), any valid routing number. Braintree's sandbox
 * network check numbers: 1000000000 and 1000000001 verify (the second "with risk"), 1000000002 finds
 * the network unavailable, 1000000004 is declined (2046); any other number is declined (2038). The
 * sandbox has no number for a debit that comes back, so these are ours: 1000000011 and 1000000012
 * settle, then are returned (R01 insufficient funds, R02 account closed); 1000000013 is declined
 * (R01) instead of settling.
 */
export const testBankAccounts: ReadonlyMap<string, SandboxBankAccountBehavior | 'processor_failure'> = new Map<
  string,
  SandboxBankAccountBehavior | 'processor_failure'
>([
  ['1000000000', 'ach_settles'],
  ['1000000001', 'ach_settles'],
  ['1000000002', 'processor_failure'],
  ['1000000004', 'ach_verification_2046'],
  ['1000000011', 'ach_returned_R01'],
  ['1000000012', 'ach_returned_R02'],
  ['1000000013', 'ach_declined_R01'],
]);

/** What any other account number does: Braintree's sandbox declines its network check (2038 Processor Declined). */
export const UNKNOWN_TEST_BANK_ACCOUNT: SandboxBankAccountBehavior = 'ach_verification_2038';

/** Braintree's fake nonce of a US bank account (`fake-us-bank-account-nonce`): an account that verifies and settles. */
export const FAKE_US_BANK_ACCOUNT_NONCE = 'fake-us-bank-account-nonce';

/** The bank every test account is at, as the page and the dashboard name it. */
export const TEST_BANK_NAME = 'Tillpoint Test Bank';

/** How a debit from an account of `behavior` ends: settles, returned after settling, or declined; with its NACHA code. */
export function bankDebitOutcome(behavior: string): { outcome: 'settles' | 'returned' | 'declined'; returnCode: string | null } {
  const returned = /^ach_returned_(R\d\d)$/.exec(behavior);
  if (returned) return { outcome: 'returned', returnCode: returned[1]! };
  const declined = /^ach_declined_(R\d\d)$/.exec(behavior);
  if (declined) return { outcome: 'declined', returnCode: declined[1]! };
  return { outcome: 'settles', returnCode: null };
}

/** The processor response code a test account's verification is declined with, or null when it verifies. */
export function verificationDecline(behavior: string): number | null {
  const match = /^ach_verification_(\d{4})$/.exec(behavior);
  return match ? Number(match[1]) : null;
}

/** Whether a vault record is a test bank account's. */
export function isBankAccountBehavior(behavior: string): boolean {
  return behavior.startsWith('ach_');
}
