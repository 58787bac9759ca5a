-- Saved US bank accounts (ADR 0108): a customer's saved payment method may be a bank account
-- (`type` 'us_bank_account') the processor keeps vaulted and verified. What may be shown of it:
-- {bank_name, last4, routing_number, account_type, account_holder_type}. Never the account number.
ALTER TABLE payment_methods ADD COLUMN us_bank_account jsonb;
