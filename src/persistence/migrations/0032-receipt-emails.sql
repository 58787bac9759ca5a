-- Receipts by email (docs/receipts.md): an account chooses whether a shopper who pays gets a receipt
-- by email. Off until the merchant turns it on, so no install starts emailing shoppers on upgrade.

ALTER TABLE accounts ADD COLUMN send_receipts boolean NOT NULL DEFAULT false;
