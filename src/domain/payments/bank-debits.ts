import type { BankDebitMethodType } from './payment-method-types';
import { localPaymentMethods } from './local-payment-methods';
import { isBankDebitMethod, isLocalPaymentMethod } from './payment-method-types';

/**
 * Bank debits: the shopper gives a bank account and accepts a mandate, the processor debits it, and
 * the money settles days later (ACH: Braintree's `TRANSACTION_SETTLED`). Until then the payment is
 * `processing`. A settled debit can still come back (an ACH return, `R01`…): the payment keeps its
 * `succeeded` history and the return is recorded on it (ADR 0107). Read by the server, the checkout
 * page and the dashboard, so it imports nothing with a runtime cost.
 */
export interface BankDebitMethod {
  /** Its name for people, the same in every language. */
  name: string;
  /** ISO 4217 codes it takes, upper case. */
  currencies: readonly string[];
}

export const bankDebitMethods: Readonly<Record<BankDebitMethodType, BankDebitMethod>> = {
  us_bank_account: { name: 'US bank account (ACH)', currencies: ['USD'] },
};

/** The kinds of US bank account braintree-web's `us-bank-account` takes, and who owns it. */
export const usBankAccountTypes = ['checking', 'savings'] as const;
export type UsBankAccountType = (typeof usBankAccountTypes)[number];
export const usBankAccountHolderTypes = ['personal', 'business'] as const;
export type UsBankAccountHolderType = (typeof usBankAccountHolderTypes)[number];

/** An ACH return as a payment records it (`ach_return`, migration 0056), in the API's own words. */
export interface AchReturn {
  /** The NACHA return code, e.g. `R01`. */
  code: string;
  /** The code in words: `insufficient_funds`, `account_closed`…; `other` for a code not listed. */
  reason: string;
  /** When the processor reported it (Unix seconds). */
  returned_at: number;
}

/** NACHA return codes a debit comes back with, and the reason each means. */
export const achReturnReasons: Readonly<Record<string, string>> = {
  R01: 'insufficient_funds',
  R02: 'account_closed',
  R03: 'no_account',
  R04: 'invalid_account_number',
  R07: 'authorization_revoked',
  R08: 'payment_stopped',
  R10: 'debit_not_authorized',
  R16: 'account_frozen',
  R20: 'non_transaction_account',
  R29: 'corporate_debit_not_authorized',
};

/** The return of `code` (upper case, `R01`…) recorded at `at`. */
export function achReturnOf(code: string, at: Date): AchReturn {
  const normalized = code.trim().toUpperCase();
  return { code: normalized, reason: achReturnReasons[normalized] ?? 'other', returned_at: Math.floor(at.getTime() / 1000) };
}

/**
 * Why a bank debit failed before it settled, as its `failure_code` says. (An account whose
 * verification the processor declined fails before any debit, as a declined card does: `card_declined`.)
 */
export const bankDebitFailureCodes = {
  /** The bank refused the debit before it settled (Braintree's `settlement_declined`). */
  settlementDeclined: 'bank_debit_declined',
} as const;

/**
 * A payment method whose money comes from the shopper's bank on its own terms: a local payment
 * method or a bank debit. Each takes only its currencies, and none can be captured later
 * (`capture_method: manual`). Null for cards and wallets.
 */
export function currencyBoundMethod(type: string): { name: string; currencies: readonly string[] } | null {
  if (isLocalPaymentMethod(type)) return localPaymentMethods[type];
  if (isBankDebitMethod(type)) return bankDebitMethods[type];
  return null;
}

/** Whether `routingNumber` is a US bank routing (ABA) number: 9 digits whose weighted sum (3, 7, 1) ends in 0. */
export function isValidRoutingNumber(routingNumber: string): boolean {
  if (!/^\d{9}$/.test(routingNumber)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...routingNumber].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  return sum % 10 === 0;
}

/** Whether `accountNumber` looks like a US bank account number: 4 to 17 digits. */
export function isValidBankAccountNumber(accountNumber: string): boolean {
  return /^\d{4,17}$/.test(accountNumber);
}
