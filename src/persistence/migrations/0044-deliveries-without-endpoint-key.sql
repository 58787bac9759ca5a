-- A webhook delivery names its endpoint without a foreign key. The key made every event's fan-out
-- (ADR 0012: the deliveries are inserted in the event's statement, the payment's outcome included)
-- check its endpoint with `SELECT … FOR KEY SHARE`: one endpoint row locked elsewhere — `FOR
-- UPDATE` by hand, or a `DELETE` under way — stalled every payment outcome of its account for the
-- lock timeout, after the processor had charged (docs/adr/0079-no-request-waits-on-a-lock-twice.md).
--
-- Deleting an endpoint now deletes its deliveries in the same statement (their attempts go with
-- them by their own key), and a delivery fanned out to an endpoint deleted at that very moment is
-- dropped by the worker's next claim.

ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_endpoint_id_fkey;
