import { newId } from '../../shared/ids';
import type { Deps } from '../../deps';
import { failedTooLong, nextRetryAt, signatureHeader, WEBHOOK_TIMEOUT_MS, webhookLeaseMs, webhookPayload } from '../rules';
import type { ClaimedDeliveries, ClaimedDelivery, RecordedAttempt, EndpointStreakChange, WebhookSender, WebhookSendResult } from '../ports';

/** One attempt, sent and not yet recorded. */
export interface WebhookOutcome {
  delivery: ClaimedDelivery;
  startedAt: Date;
  result: WebhookSendResult;
  at: Date;
}

/**
 * Claims due deliveries (leased for the send timeout plus a margin, so no other worker sends them
 * meanwhile): at most `limit`, and per endpoint at most `perEndpoint` less what `inFlight` says is
 * already being sent to it.
 */
export async function claimDueWebhooks(
  deps: Deps,
  options: { limit: number; perEndpoint?: number; inFlight?: ReadonlyMap<string, number>; timeoutMs?: number },
): Promise<ClaimedDeliveries> {
  const now = deps.clock.now();
  return deps.store.transaction((tx) =>
    tx.webhookDeliveries.claimDue({
      now,
      leaseUntil: new Date(now.getTime() + webhookLeaseMs(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS)),
      leaseToken: newId('lease', 16),
      limit: options.limit,
      ...(options.perEndpoint === undefined ? {} : { perEndpoint: options.perEndpoint }),
      ...(options.inFlight === undefined ? {} : { inFlight: options.inFlight }),
    }),
  );
}

/** Sends one claimed delivery, signed, with no transaction open; never throws. */
export async function sendWebhook(
  deps: Pick<Deps, 'clock'>,
  sender: WebhookSender,
  delivery: ClaimedDelivery,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<WebhookOutcome> {
  const startedAt = deps.clock.now();
  const body = webhookPayload(delivery.event);
  const result: WebhookSendResult = await signatureHeader(delivery.endpoint.secret, Math.floor(startedAt.getTime() / 1000), body)
    .then((signature) =>
      sender.send({
        url: delivery.endpoint.url,
        mode: delivery.endpoint.mode,
        body,
        headers: { 'tillpoint-signature': signature },
        timeoutMs,
        ...(signal ? { signal } : {}),
      }),
    )
    .catch((error: unknown) => ({ ok: false, status: null, body: null, durationMs: 0, error: String(error) }));
  return { delivery, startedAt, result, at: deps.clock.now() };
}

/**
 * Records a batch of outcomes in one transaction: each attempt in the delivery log and its next
 * attempt (retry schedule of design.md §9, or abandoned), if its lease is still ours; then the
 * endpoints' failing streaks, disabling an endpoint that has failed for 3 days or whose delivery
 * was abandoned. `outcomes` are in the order their sends finished.
 */
export async function recordWebhookOutcomes(deps: Pick<Deps, 'store'>, outcomes: WebhookOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const attempts = outcomes.map(({ delivery, startedAt, result, at }): RecordedAttempt & { retryAt: Date | null } => {
    const retryAt = result.ok ? null : nextRetryAt(delivery.firstDueAt, delivery.attempt);
    return {
      deliveryId: delivery.id,
      leaseToken: delivery.leaseToken,
      attempt: {
        attempt: delivery.attempt,
        outcome: result.ok ? 'succeeded' : 'failed',
        responseStatus: result.status,
        responseBody: result.body,
        durationMs: result.durationMs,
        error: result.ok ? null : result.error,
        startedAt,
      },
      status: result.ok ? 'delivered' : retryAt ? 'retrying' : 'abandoned',
      nextAttemptAt: retryAt,
      at,
      retryAt,
    };
  });
  await deps.store.transaction(async (tx) => {
    const recorded = await tx.webhookDeliveries.recordAttempts(attempts);
    // A lost lease means another worker has taken the delivery over; its outcome will count.
    const counted = outcomes.filter((outcome) => recorded.has(outcome.delivery.id));
    const streaks = new Map<string, EndpointStreakChange>();
    const abandoned = new Set<string>();
    for (const [i, outcome] of outcomes.entries()) {
      if (!recorded.has(outcome.delivery.id)) continue;
      const id = outcome.delivery.endpoint.id;
      const streak = streaks.get(id) ?? { id, reset: false, failingFrom: null };
      if (outcome.result.ok) {
        streak.reset = true;
        streak.failingFrom = null;
      } else {
        streak.failingFrom ??= outcome.startedAt;
        if (attempts[i]!.retryAt === null) abandoned.add(id);
      }
      streaks.set(id, streak);
    }
    if (counted.length === 0) return;
    const failingSince = await tx.webhookEndpoints.noteDeliveryResults([...streaks.values()]);
    // Disabled after 3 days of failures: either the streak is that long, or a delivery has used up
    // its whole 3-day schedule without the endpoint succeeding once meanwhile.
    const at = counted[counted.length - 1]!.at;
    const disable = [...streaks.keys()].filter(
      (id) => abandoned.has(id) || (streaks.get(id)!.failingFrom !== null && failedTooLong(failingSince.get(id) ?? null, at)),
    );
    await tx.webhookEndpoints.disableMany(disable, at);
  });
}

/** Gives back claims whose sends were cut short (shutdown): due again at once, for any worker. */
export async function releaseWebhookClaims(deps: Pick<Deps, 'store'>, deliveries: ClaimedDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await deps.store.transaction((tx) =>
    tx.webhookDeliveries.releaseClaims(deliveries.map((delivery) => ({ deliveryId: delivery.id, leaseToken: delivery.leaseToken }))),
  );
}

/**
 * One pass over the outbox: claim the due deliveries, send each with no transaction open, record
 * every outcome. Returns how many were attempted. The worker (`startWebhookWorker`) runs a
 * continuous pipeline of the same steps instead, so no send waits for another.
 */
export async function deliverDueWebhooks(deps: Deps, options: { sender: WebhookSender; batchSize?: number; timeoutMs?: number }): Promise<number> {
  const { deliveries: claimed } = await claimDueWebhooks(deps, {
    limit: options.batchSize ?? 20,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const outcomes = await Promise.all(claimed.map((delivery) => sendWebhook(deps, options.sender, delivery, options.timeoutMs)));
  await recordWebhookOutcomes(deps, outcomes);
  return claimed.length;
}
