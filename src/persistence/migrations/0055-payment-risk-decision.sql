-- The processor's fraud screening of a payment (Braintree's Advanced Fraud Protection: Approve,
-- Review, Decline, Not Evaluated), when it returns one.
ALTER TABLE payments ADD COLUMN risk_decision text;
