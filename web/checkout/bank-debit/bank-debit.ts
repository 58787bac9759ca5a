import type { UsBankAccountHolderType, UsBankAccountType } from '../../../src/domain/payments/bank-debits';
import { base, request, type PublicSession } from '../api';
import { cjs } from '../braintree/module-exports';
import type { MessageKey } from '../i18n';

/**
 * ACH bank debits (`us_bank_account`): the shopper's US bank account and the mandate they accepted
 * become a single-use nonce. On Braintree through braintree-web 3.79.1's `us-bank-account` (its
 * `tokenize({bankDetails, mandateText})`, a GraphQL mutation to Braintree; the bank-login flow is
 * not offered); in test mode through the test processor's endpoint (docs/test-processor.md).
 */
export interface BankAccountDetails {
  routingNumber: string;
  accountNumber: string;
  accountType: UsBankAccountType;
  ownershipType: UsBankAccountHolderType;
  /** A person's full name, or the business's. */
  holderName: string;
}

/**
 * The mandate the shopper accepts: a session that saves the payment method (`on`) keeps the account
 * for later debits (renewals, the merchant's payments: ADR 0108), so its words authorize those too
 * (NACHA's standing authorization); any other session's authorize the one debit.
 */
export function mandateMessageKey(save: PublicSession['save_payment_method']): MessageKey {
  return save === 'on' ? 'bankDebit.mandateSaved' : 'bankDebit.mandate';
}

/** Turns the account and its accepted mandate into a nonce; rejects when the processor refuses them. */
export type BankAccountTokenizer = (details: BankAccountDetails, mandateText: string) => Promise<string>;

/** The test processor's tokenizer: the account goes to this server's test endpoint, which keeps its last 4 digits only. */
export function testBankAccountTokenizer(sessionId: string): BankAccountTokenizer {
  return async (details, mandateText) =>
    (
      await request<{ nonce: string }>(`${base(sessionId)}/bank-account-tokens`, {
        body: {
          routing_number: details.routingNumber,
          account_number: details.accountNumber,
          account_type: details.accountType,
          account_holder_type: details.ownershipType,
          account_holder_name: details.holderName,
          mandate_text: mandateText,
        },
      })
    ).nonce;
}

/** braintree-web 3.79.1's us-bank-account instance (the part the page calls). */
interface UsBankAccountInstance {
  tokenize(options: { bankDetails: Record<string, unknown>; mandateText: string }): Promise<{ nonce: string }>;
}

/**
 * Braintree's tokenizer: braintree-web's `us-bank-account` on the page's client. A person is named
 * by first and last name (the last word is the last name), a business by its name.
 */
export async function braintreeBankAccountTokenizer(client: Promise<unknown>): Promise<BankAccountTokenizer> {
  const instance = (await cjs(await import('braintree-web/us-bank-account')).create({ client: await client })) as UsBankAccountInstance;
  return async (details, mandateText) => {
    const name = details.holderName.trim();
    const split = name.lastIndexOf(' ');
    const owner =
      details.ownershipType === 'business'
        ? { businessName: name }
        : { firstName: split > 0 ? name.slice(0, split) : name, lastName: split > 0 ? name.slice(split + 1) : name };
    const { nonce } = await instance.tokenize({
      bankDetails: {
        routingNumber: details.routingNumber,
        accountNumber: details.accountNumber,
        accountType: details.accountType,
        ownershipType: details.ownershipType,
        ...owner,
      },
      mandateText,
    });
    return nonce;
  };
}
