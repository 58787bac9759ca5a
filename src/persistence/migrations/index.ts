import type { SqlClient } from '../sql-client';
import checkoutCore from './0001-checkout-core';
import paymentLifecycle from './0002-payment-lifecycle';
import webhooksIdempotency from './0003-webhooks-idempotency';
import processorConfigs from './0004-processor-configs';
import flagsExperiments from './0005-flags-experiments';
import dashboard from './0006-dashboard';
import reconcileOperations from './0008-reconcile-operations';
import hotPath from './0009-hot-path';
import checkoutPageIntegrity from './0012-checkout-page-integrity';
import apiKeyChanges from './0013-api-key-changes';
import dropRedundantIndexes from './0014-drop-redundant-indexes';
import requestLogSequence from './0015-request-log-sequence';
import accountRowsWithoutRowLocks from './0016-account-rows-without-row-locks';
import accessAndAccountSecurity from './0017-access-and-account-security';
import lateAnswerChecks from './0018-late-answer-checks';
import customers from './0020-customers';
import savedPaymentMethods from './0021-saved-payment-methods';
import testNonceThreeDSecure from './0024-test-nonce-three-d-secure';
import disputes from './0022-disputes';
import searchIndexes from './0025-search-indexes';
import sessionTotals from './0028-session-totals';
import discountsAndTaxRates from './0029-discounts-and-tax-rates';
import merchantInitiatedPaymentsAndSetupSessions from './0031-merchant-initiated-payments-and-setup-sessions';
import receiptEmails from './0032-receipt-emails';
import checkoutAddresses from './0034-checkout-addresses';
import shopperOptionsAndEmbeddedCheckout from './0035-shopper-options-and-embedded-checkout';
import namedRestrictedApiKeys from './0036-named-restricted-api-keys';
import paymentStory from './0037-payment-story';
import cvcRecollection from './0038-cvc-recollection';
import searchCustomersAndDisputes from './0039-search-customers-and-disputes';
import paymentLinkOptions from './0041-payment-link-options';
import metadataIndexWithoutPendingList from './0042-metadata-index-without-pending-list';
import dropIndexesOthersServe from './0043-drop-indexes-others-serve';
import deliveriesWithoutEndpointKey from './0044-deliveries-without-endpoint-key';
import statementChecks from './0045-statement-checks';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The one set of migrations, for PGlite and PostgreSQL alike, one file each. Append only: a shipped
 * migration is never edited.
 */
export const migrations: Migration[] = [
  checkoutCore,
  paymentLifecycle,
  webhooksIdempotency,
  processorConfigs,
  flagsExperiments,
  dashboard,
  reconcileOperations,
  hotPath,
  checkoutPageIntegrity,
  apiKeyChanges,
  dropRedundantIndexes,
  requestLogSequence,
  accountRowsWithoutRowLocks,
  accessAndAccountSecurity,
  lateAnswerChecks,
  customers,
  savedPaymentMethods,
  disputes,
  testNonceThreeDSecure,
  searchIndexes,
  sessionTotals,
  discountsAndTaxRates,
  merchantInitiatedPaymentsAndSetupSessions,
  receiptEmails,
  checkoutAddresses,
  shopperOptionsAndEmbeddedCheckout,
  namedRestrictedApiKeys,
  paymentStory,
  cvcRecollection,
  searchCustomersAndDisputes,
  paymentLinkOptions,
  metadataIndexWithoutPendingList,
  dropIndexesOthersServe,
  deliveriesWithoutEndpointKey,
  statementChecks,
];

/** Applies the migrations not yet applied. Safe to run from several instances at once. */
export async function migrate(db: SqlClient): Promise<number[]> {
  return db.transaction(async (tx) => {
    // A migration may rewrite a large table, and may wait for another instance's: neither is a
    // request's statement, so neither is cut short by the connection's timeouts.
    await tx.query("SELECT set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true)");
    // One migrator at a time across every instance; the lock ends with the transaction.
    await tx.query('SELECT pg_advisory_xact_lock(727274)');
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => Number(row.version)));
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      // Whole, as written: PostgreSQL's simple query protocol (and PGlite's exec) runs a script of
      // several statements, plpgsql bodies included.
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      done.push(migration.version);
    }
    return done;
  });
}
