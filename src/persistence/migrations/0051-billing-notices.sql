-- Billing notices and emails (docs/billing.md), each sent once whatever instance runs the billing job:
-- the column records what was sent, claimed in the same transaction that inserts the event.

-- `customer.subscription.trial_will_end`: the trial end it was sent for.
ALTER TABLE subscriptions ADD COLUMN trial_will_end_sent_for timestamptz;
-- `invoice.upcoming`: the end of the period (the renewal) it was sent for.
ALTER TABLE subscriptions ADD COLUMN upcoming_sent_for timestamptz;
-- The payment-failed email: the attempt count whose failure was emailed last. Failures recorded
-- before this column existed count as emailed, so none is emailed late.
ALTER TABLE invoices ADD COLUMN failure_emailed_attempts integer;
UPDATE invoices SET failure_emailed_attempts = attempt_count
  WHERE status = 'uncollectible' OR (status = 'open' AND next_payment_attempt IS NOT NULL AND attempt_count > 0);

-- What the billing job looks at on the wall clock: unsent notices by the moment they are about.
CREATE INDEX subscriptions_trial_will_end_due ON subscriptions (trial_end)
  WHERE status = 'trialing' AND test_clock_id IS NULL AND trial_will_end_sent_for IS DISTINCT FROM trial_end;
CREATE INDEX subscriptions_upcoming_due ON subscriptions (current_period_end)
  WHERE status IN ('trialing', 'active', 'past_due') AND NOT cancel_at_period_end AND test_clock_id IS NULL
    AND upcoming_sent_for IS DISTINCT FROM current_period_end;
-- Failed charges whose email is still to be claimed (a few at any time).
CREATE INDEX invoices_failure_email_due ON invoices (updated_at)
  WHERE attempt_count > coalesce(failure_emailed_attempts, 0) AND status IN ('open', 'uncollectible') AND test_clock_id IS NULL;

-- The languages a customer prefers, first first (Stripe's `preferred_locales`): their emails use
-- the first one Tillpoint has words for.
ALTER TABLE customers ADD COLUMN preferred_locales jsonb NOT NULL DEFAULT '[]';
