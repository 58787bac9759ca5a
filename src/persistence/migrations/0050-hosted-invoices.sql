-- An invoice's hosted page (`hosted_invoice_url`, docs/billing.md): the customer opens it by a secret
-- token of its own, never by the invoice's id.
ALTER TABLE invoices ADD COLUMN hosted_token text;
UPDATE invoices SET hosted_token = 'ih_' || replace(gen_random_uuid()::text, '-', '') WHERE hosted_token IS NULL;
ALTER TABLE invoices ALTER COLUMN hosted_token SET NOT NULL;
CREATE UNIQUE INDEX invoices_hosted_token ON invoices (hosted_token);
