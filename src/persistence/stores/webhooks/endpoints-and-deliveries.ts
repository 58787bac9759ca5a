import { events, type DomainEvent } from '../../../domain/shared/events';
import type { SqlExecutor } from '../../sql-client';
import type { Scope } from '../../../domain/shared/scope';
import { webhookEndpoints, type WebhookDelivery, type WebhookAttempt } from '../../../domain/webhooks/entities';
import type { ClaimedDelivery, WebhookEndpointRepository, WebhookDeliveryRepository } from '../../../domain/webhooks/ports';
import { scopedGetQuery, scopedListQuery } from '../../list-query';
import { columnsOf, rowReader } from '../../resource-rows';
import { assignments, dateOrNull, fieldValues, placeholders, type Row } from '../../rows';

/** An endpoint's row, and the columns it is made with and updated with, as its definition says (resource-rows.ts). */
const toEndpoint = rowReader(webhookEndpoints);
const endpointFields = columnsOf(webhookEndpoints);
const updatedEndpointFields = columnsOf(webhookEndpoints, 'updated');
const insertEndpoint = `INSERT INTO ${webhookEndpoints.table} (${endpointFields.map(([column]) => column).join(', ')})
  VALUES (${placeholders(1, endpointFields.length)})`;
const updateEndpoint = `UPDATE ${webhookEndpoints.table} SET ${assignments(
  updatedEndpointFields.map(([column]) => column),
  2,
)} WHERE id = $1`;

function toAttempt(row: Row): WebhookAttempt {
  return {
    attempt: Number(row.attempt),
    outcome: row.outcome,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    responseBody: row.response_body,
    durationMs: Number(row.duration_ms),
    error: row.error,
    startedAt: new Date(row.started_at),
  };
}

function toDelivery(row: Row): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    accountId: row.account_id,
    mode: row.mode,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: dateOrNull(row.next_attempt_at),
    lastResponseStatus: row.last_response_status === null ? null : Number(row.last_response_status),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    log: (row.log ?? []).map(toAttempt),
  };
}

/** The columns an event is written with, and its rows read, as its definition says (resource-rows.ts). */
export const eventFields = columnsOf(events);
export const toEvent = rowReader(events);
const eventColumns = eventFields.map(([column]) => column).join(', ');
/** A claimed delivery's event, its columns selected beside the delivery's as `event_<column>`. */
const claimedEventColumns = eventFields.map(([column]) => `ev.${column} AS event_${column}`).join(', ');
const toClaimedEvent = rowReader(events, 'event_');

/**
 * The outbox fan-out (ADR 0012) of the events `events` names: a CTE of the same statement, the
 * events' `INSERT … RETURNING id, account_id, mode, type, created_at`. One delivery per enabled
 * endpoint of an event's account and mode that wants its type. The one place this rule is
 * written: every statement that inserts events sends it as its last part, so an event is never
 * committed without its deliveries.
 */
export function deliveriesOfNewEvents(events: string): string {
  return `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, account_id, mode, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e.id, ev.id, e.account_id, e.mode, 'pending', 0, ev.created_at, ev.created_at, ev.created_at
       FROM ${events} ev JOIN webhook_endpoints e ON e.account_id = ev.account_id AND e.mode = ev.mode
      WHERE e.status = 'enabled' AND (e.enabled_events ? '*' OR e.enabled_events ? ev.type)`;
}

/** Inserts an event with its webhook deliveries, in one statement. */
export async function insertEventWithDeliveries(db: SqlExecutor, event: DomainEvent): Promise<void> {
  await db.query(
    `WITH ev AS (
       INSERT INTO ${events.table} (${eventColumns}) VALUES (${placeholders(1, eventFields.length)})
       RETURNING id, account_id, mode, type, created_at)
     ${deliveriesOfNewEvents('ev')}`,
    fieldValues(eventFields, event),
  );
}

export function webhookEndpointRepository(db: SqlExecutor): WebhookEndpointRepository {
  return {
    async insert(e) {
      await db.query(insertEndpoint, fieldValues(endpointFields, e));
    },
    async get(scope, id) {
      const query = scopedGetQuery('webhook_endpoints', scope, id);
      const { rows } = await db.query(query.text, query.params);
      return rows[0] ? toEndpoint(rows[0]) : null;
    },
    async list(scope, page) {
      const query = scopedListQuery('webhook_endpoints', scope, page);
      const { rows } = await db.query(query.text, query.params);
      return rows.map(toEndpoint);
    },
    async update(e) {
      await db.query(updateEndpoint, [e.id, ...fieldValues(updatedEndpointFields, e)]);
    },
    async noteDeliveryResults(streaks) {
      const found = new Map<string, Date | null>();
      if (streaks.length === 0) return found;
      const { rows } = await db.query<{ id: string; failing_since: unknown }>(
        `UPDATE webhook_endpoints e
         SET failing_since = CASE WHEN v.reset THEN v.failing_from ELSE coalesce(e.failing_since, v.failing_from) END
         FROM unnest($1::text[], $2::boolean[], $3::timestamptz[]) AS v (id, reset, failing_from)
         WHERE e.id = v.id
         RETURNING e.id, e.failing_since`,
        [streaks.map((s) => s.id), streaks.map((s) => s.reset), streaks.map((s) => s.failingFrom?.toISOString() ?? null)],
      );
      for (const row of rows) found.set(row.id, dateOrNull(row.failing_since));
      return found;
    },
    async disableMany(ids, at) {
      if (ids.length === 0) return;
      await db.query(`UPDATE webhook_endpoints SET status = 'disabled', updated_at = $2 WHERE id = ANY($1::text[])`, [ids, at]);
    },
    async delete(scope, id) {
      // Its deliveries go with it (no foreign key does it: migration 0044), their attempts by theirs.
      const { rows } = await db.query<{ n: number }>(
        `WITH gone AS (DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND mode = $3 RETURNING id),
         deliveries AS (DELETE FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM gone))
         SELECT count(*)::int AS n FROM gone`,
        [id, scope.accountId, scope.mode],
      );
      return Number(rows[0]?.n) === 1;
    },
  };
}

const deliveryWithLog = `
  SELECT d.*, ev.type AS event_type,
    (SELECT coalesce(jsonb_agg(to_jsonb(a) ORDER BY a.attempt), '[]'::jsonb)
       FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS log
  FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id`;

export function webhookDeliveryRepository(db: SqlExecutor): WebhookDeliveryRepository {
  return {
    async get(scope, endpointId, id) {
      const { rows } = await db.query(`${deliveryWithLog} WHERE d.id = $1 AND d.endpoint_id = $2 AND d.account_id = $3 AND d.mode = $4`, [
        id,
        endpointId,
        scope.accountId,
        scope.mode,
      ]);
      return rows[0] ? toDelivery(rows[0]) : null;
    },
    async list(scope, endpointId, page) {
      const params: unknown[] = [scope.accountId, scope.mode, endpointId];
      let where = 'd.account_id = $1 AND d.mode = $2 AND d.endpoint_id = $3';
      if (page.startingAfter) {
        params.push(page.startingAfter);
        where += ` AND (d.created_at, d.id) < (SELECT created_at, id FROM webhook_deliveries WHERE id = $${params.length} AND account_id = $1 AND mode = $2)`;
      }
      params.push(page.limit);
      const { rows } = await db.query(`${deliveryWithLog} WHERE ${where} ORDER BY d.created_at DESC, d.id DESC LIMIT $${params.length}`, params);
      return rows.map(toDelivery);
    },
    async listForEvents(scope, eventIds) {
      if (eventIds.length === 0) return [];
      const { rows } = await db.query(
        `${deliveryWithLog} WHERE d.event_id = ANY($1::text[]) AND d.account_id = $2 AND d.mode = $3 ORDER BY d.created_at, d.id`,
        [eventIds, scope.accountId, scope.mode],
      );
      return rows.map(toDelivery);
    },
    async claimDue({ now, leaseUntil, leaseToken, limit, perEndpoint = limit, inFlight = new Map() }) {
      // Endpoint by endpoint: the endpoints with outstanding deliveries and the next attempt of
      // each one's oldest, found by a skip scan of `webhook_deliveries_endpoint_due` (one index
      // descent per such endpoint; endpoints with nothing outstanding cost nothing), less those
      // with nothing due yet, disabled or already at their cap; for the others, their oldest due
      // delivery not leased (one more descent each); the endpoints waiting longest, as
      // many as `limit` can serve at their room; their oldest due deliveries, at most their room
      // each; the oldest of those, at most `limit`. No endpoint's backlog is walked to reach another's (a window of the
      // oldest due deliveries stepped over a hanging endpoint's whole backlog on every claim), and
      // no more deliveries are read than the claim can take, give or take one endpoint's room.
      // Row locks with SKIP LOCKED, the due condition checked again under the lock, and the lease
      // make two workers never take the same delivery.
      const full = [...inFlight].filter(([, n]) => n >= perEndpoint).map(([id]) => id);
      const { rows } = await db.query<Row>(
        `WITH RECURSIVE busy AS (
           SELECT * FROM unnest($5::text[], $6::int[]) AS b (endpoint_id, in_flight)),
         outstanding (endpoint_id, head) AS (
           -- A skip scan of the composite index: each endpoint with outstanding deliveries and its
           -- oldest one's next attempt (leased or not), one index descent each.
           (SELECT endpoint_id, next_attempt_at FROM webhook_deliveries WHERE status IN ('pending', 'retrying')
            ORDER BY endpoint_id, next_attempt_at LIMIT 1)
           UNION ALL
           SELECT n.endpoint_id, n.next_attempt_at FROM outstanding o
           CROSS JOIN LATERAL (
             SELECT w.endpoint_id, w.next_attempt_at FROM webhook_deliveries w
             WHERE w.status IN ('pending', 'retrying') AND w.endpoint_id > o.endpoint_id
             ORDER BY w.endpoint_id, w.next_attempt_at LIMIT 1) n),
         heads AS (
           -- Those with something due, enabled and with room here, and each one's oldest delivery
           -- it can take now: past its leased ones (sends under way, here or elsewhere; at most
           -- 16 a worker), so an endpoint whose due deliveries are all being sent takes no place.
           -- Written as a range of one endpoint so the planner walks the composite index in
           -- (endpoint, next attempt) order, not the due index past other endpoints' deliveries.
           SELECT e.id, least($4::int, $8::int - coalesce(b.in_flight, 0)) AS room, h.next_attempt_at AS head
           FROM outstanding o
           JOIN webhook_endpoints e ON e.id = o.endpoint_id AND e.status = 'enabled'
           LEFT JOIN busy b ON b.endpoint_id = e.id
           CROSS JOIN LATERAL (
             SELECT w.next_attempt_at FROM webhook_deliveries w
             WHERE w.endpoint_id >= e.id AND w.endpoint_id <= e.id
               AND w.status IN ('pending', 'retrying') AND w.next_attempt_at <= $1
               AND (w.lease_until IS NULL OR w.lease_until <= $1)
             ORDER BY w.endpoint_id, w.next_attempt_at
             LIMIT 1) h
           WHERE o.head <= $1 AND e.id <> ALL($7::text[]) AND $8::int - coalesce(b.in_flight, 0) > 0),
         served AS (
           -- The endpoints waiting longest, as many as the limit can serve at their room.
           SELECT id, room FROM (
             SELECT id, room, sum(room) OVER (ORDER BY head, id ROWS UNBOUNDED PRECEDING) - room AS before FROM heads) s
           WHERE before < $4),
         chosen AS (
           SELECT d.id FROM served
           CROSS JOIN LATERAL (
             SELECT w.id, w.next_attempt_at FROM webhook_deliveries w
             WHERE w.endpoint_id >= served.id AND w.endpoint_id <= served.id
               AND w.status IN ('pending', 'retrying') AND w.next_attempt_at <= $1
               AND (w.lease_until IS NULL OR w.lease_until <= $1)
             ORDER BY w.endpoint_id, w.next_attempt_at
             LIMIT served.room) d
           ORDER BY d.next_attempt_at
           LIMIT $4),
         picked AS (
           SELECT wd.id FROM webhook_deliveries wd
           WHERE wd.id IN (SELECT id FROM chosen)
             AND wd.status IN ('pending', 'retrying') AND wd.next_attempt_at <= $1
             AND (wd.lease_until IS NULL OR wd.lease_until <= $1)
           FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE webhook_deliveries d
           SET attempts = d.attempts + 1, lease_token = $2, lease_until = $3, updated_at = $1
           WHERE d.id IN (SELECT id FROM picked)
           RETURNING d.*),
         orphaned AS (
           -- Deliveries fanned out to an endpoint as it was deleted (the event's statement read it
           -- before the deletion committed; no foreign key ties them: migration 0044) are dropped.
           DELETE FROM webhook_deliveries w
           WHERE w.endpoint_id IN (SELECT o.endpoint_id FROM outstanding o
                                    WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = o.endpoint_id))
             AND w.status IN ('pending', 'retrying'))
         SELECT (SELECT count(*) FROM heads) > (SELECT count(*) FROM served) AS left_out, c.id, c.attempts, c.lease_token, c.created_at AS first_due_at,
                e.id AS endpoint_id, e.url, e.secret, e.mode AS endpoint_mode, e.failing_since,
                ${claimedEventColumns}
         FROM claimed c
         JOIN webhook_endpoints e ON e.id = c.endpoint_id
         JOIN events ev ON ev.id = c.event_id`,
        [now, leaseToken, leaseUntil, limit, [...inFlight.keys()], [...inFlight.values()], full, perEndpoint],
      );
      const deliveries = rows.map(
        (row): ClaimedDelivery => ({
          id: row.id,
          attempt: Number(row.attempts),
          leaseToken: row.lease_token,
          firstDueAt: new Date(row.first_due_at),
          endpoint: {
            id: row.endpoint_id,
            url: row.url,
            secret: row.secret,
            mode: row.endpoint_mode,
            failingSince: dateOrNull(row.failing_since),
          },
          event: toClaimedEvent(row),
        }),
      );
      // Nothing claimed: nothing due that an endpoint with room could take (or another worker has
      // just locked it). Otherwise the claim saw all unless it left endpoints with due work out.
      return { deliveries, sawAllDue: rows.length === 0 || !rows[0]!.left_out };
    },
    async recordAttempts(attempts) {
      if (attempts.length === 0) return new Set<string>();
      const iso = (date: Date | null) => date?.toISOString() ?? null;
      // One statement for the batch: each delivery's state, if its lease is still ours, and then
      // its delivery-log line.
      const { rows } = await db.query<{ delivery_id: string }>(
        `WITH v AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::int[], $6::timestamptz[],
                                $7::int[], $8::text[], $9::text[], $10::int[], $11::text[], $12::timestamptz[])
             AS v (id, lease_token, status, next_attempt_at, response_status, at,
                   attempt, outcome, response_body, duration_ms, error, started_at)),
         updated AS (
           UPDATE webhook_deliveries d SET status = v.status, next_attempt_at = v.next_attempt_at,
             last_response_status = v.response_status, lease_token = NULL, lease_until = NULL, updated_at = v.at
           FROM v WHERE d.id = v.id AND d.lease_token = v.lease_token
           RETURNING d.id)
         INSERT INTO webhook_delivery_attempts (delivery_id, attempt, outcome, response_status, response_body, duration_ms, error, started_at)
         SELECT v.id, v.attempt, v.outcome, v.response_status, v.response_body, v.duration_ms, v.error, v.started_at
         FROM v JOIN updated ON updated.id = v.id
         RETURNING delivery_id`,
        [
          attempts.map((a) => a.deliveryId),
          attempts.map((a) => a.leaseToken),
          attempts.map((a) => a.status),
          attempts.map((a) => iso(a.nextAttemptAt)),
          attempts.map((a) => a.attempt.responseStatus),
          attempts.map((a) => a.at.toISOString()),
          attempts.map((a) => a.attempt.attempt),
          attempts.map((a) => a.attempt.outcome),
          attempts.map((a) => a.attempt.responseBody),
          attempts.map((a) => a.attempt.durationMs),
          attempts.map((a) => a.attempt.error),
          attempts.map((a) => a.attempt.startedAt.toISOString()),
        ],
      );
      return new Set(rows.map((row) => row.delivery_id));
    },
    async releaseClaims(claims) {
      if (claims.length === 0) return;
      await db.query(
        `UPDATE webhook_deliveries d SET attempts = d.attempts - 1, lease_token = NULL, lease_until = NULL
           FROM unnest($1::text[], $2::text[]) AS c (id, lease_token)
          WHERE d.id = c.id AND d.lease_token = c.lease_token`,
        [claims.map((c) => c.deliveryId), claims.map((c) => c.leaseToken)],
      );
    },
    async requeue(scope: Scope, id: string, at: Date) {
      await db.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $4, updated_at = $4
         WHERE id = $1 AND account_id = $2 AND mode = $3`,
        [id, scope.accountId, scope.mode, at],
      );
    },
  };
}
