import { setMaxListeners } from 'node:events';
import type { Deps } from '../domain/deps';
import { WEBHOOK_TIMEOUT_MS } from '../domain/webhooks/rules';
import {
  claimDueWebhooks,
  recordWebhookOutcomes,
  releaseWebhookClaims,
  sendWebhook,
  type WebhookOutcome,
} from '../domain/webhooks/use-cases/deliver-due-webhooks';
import type { ClaimedDelivery, WebhookSender } from '../domain/webhooks/ports';

export interface WebhookWorker {
  /**
   * Stops claiming and waits for deliveries under way to be sent and recorded. With `handBackAfterMs`,
   * sends still under way after that long are cut (their requests aborted) and their claims given
   * back, due again at once for the next instance (a receiver that had not answered gets the event
   * again; none is lost, and the cut attempt is not counted); with `handBackWhen`, as soon as it
   * settles, if that comes first.
   */
  stop(options?: { handBackAfterMs?: number; handBackWhen?: Promise<unknown> }): Promise<void>;
}

interface Log {
  error(details: object, message: string): void;
}

/** Deliveries one instance sends (or holds unrecorded) at once. */
export const WEBHOOK_MAX_IN_FLIGHT = 1000;
/** Deliveries one instance sends to one endpoint at once. */
export const WEBHOOK_PER_ENDPOINT = 16;
/** Deliveries claimed per round trip, at most. */
const CLAIM_LIMIT = 250;
/** Outcomes recorded per transaction, at most. */
const RECORD_LIMIT = 500;
/** After a send frees a slot, how long the claim loop lets others finish before it claims. */
const COALESCE_MS = 5;

/**
 * The webhook worker every `tillpoint serve` instance runs, as a pipeline: it claims due deliveries
 * whenever it has room (up to WEBHOOK_MAX_IN_FLIGHT at once, and WEBHOOK_PER_ENDPOINT per endpoint,
 * so an endpoint that is slow to answer only ever holds its own slots), starts each send at once,
 * and records outcomes in batches as sends finish: no send waits for another. When nothing is due
 * it polls every `pollMs`. Several instances share the outbox safely through leases.
 */
export function startWebhookWorker(options: {
  deps: Deps;
  sender: WebhookSender;
  log: Log;
  /** Pause between polls when nothing was due. */
  pollMs?: number;
  /** The send timeout (design.md §9: 10 s); the lease is this plus a margin. */
  timeoutMs?: number;
  maxInFlight?: number;
  perEndpoint?: number;
}): WebhookWorker {
  const { deps, sender, log } = options;
  const pollMs = options.pollMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const maxInFlight = options.maxInFlight ?? WEBHOOK_MAX_IN_FLIGHT;
  const perEndpoint = options.perEndpoint ?? WEBHOOK_PER_ENDPOINT;

  let running = true;
  /** Claimed and not yet recorded: the bound on memory and on the leases this instance holds. */
  let held = 0;
  /** Sends under way per endpoint. */
  const sending = new Map<string, number>();
  const sends = new Set<Promise<void>>();
  /** Cuts every send under way (shutdown's hand-back). */
  const cut = new AbortController();
  // Each send under way listens to it: as many as maxInFlight at once, not a leak.
  setMaxListeners(maxInFlight + 1, cut.signal);
  /** Sends cut short: given back, not recorded. */
  const handedBack: ClaimedDelivery[] = [];
  const toRecord: WebhookOutcome[] = [];
  let recording: Promise<void> | null = null;
  /** What the claim loop waits for when it pauses: recorded outcomes (room), a finished send, or the poll. */
  let waitingFor: 'room' | 'send' | 'poll' = 'poll';
  let wake: (() => void) | null = null;
  /**
   * Counts finished sends and recorded batches, so the claim loop can tell that one happened
   * while it was claiming (when no pause was there to wake): it must not then sleep the poll away.
   */
  let progress = 0;
  const wakeUp = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  /** Resolves after `ms`, or earlier (true) when woken. */
  const pause = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve(false);
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });

  const record = () => {
    if (recording || toRecord.length === 0) return;
    recording = (async () => {
      while (toRecord.length > 0) {
        const batch = toRecord.splice(0, RECORD_LIMIT);
        try {
          await recordWebhookOutcomes(deps, batch);
        } catch (error) {
          // The leases run out and the deliveries are attempted again: at least once, never lost.
          log.error({ err: error }, 'could not record webhook attempts');
        }
        held -= batch.length;
        progress += 1;
        if (waitingFor === 'room') wakeUp();
      }
      recording = null;
    })();
  };

  const send = (delivery: ClaimedDelivery) => {
    const endpointId = delivery.endpoint.id;
    sending.set(endpointId, (sending.get(endpointId) ?? 0) + 1);
    const done = sendWebhook(deps, sender, delivery, timeoutMs, cut.signal).then((outcome) => {
      const left = (sending.get(endpointId) ?? 1) - 1;
      if (left > 0) sending.set(endpointId, left);
      else sending.delete(endpointId);
      sends.delete(done);
      if (cut.signal.aborted && !outcome.result.ok) {
        handedBack.push(delivery);
        held -= 1;
      } else {
        toRecord.push(outcome);
        record();
      }
      progress += 1;
      if (waitingFor === 'send') wakeUp();
    });
    sends.add(done);
  };

  const worker = (async () => {
    while (running) {
      const room = Math.min(CLAIM_LIMIT, maxInFlight - held);
      const progressBefore = progress;
      let claimed = 0;
      let sawAllDue = false;
      if (room > 0) {
        try {
          const claim = await claimDueWebhooks(deps, { limit: room, perEndpoint, inFlight: sending, timeoutMs });
          const { deliveries } = claim;
          claimed = deliveries.length;
          sawAllDue = claim.sawAllDue;
          held += claimed;
          for (const delivery of deliveries) send(delivery);
        } catch (error) {
          log.error({ err: error }, 'webhook delivery pass failed');
        }
      }
      // A full claim means more may be due: claim again at once, as when the claim left endpoints
      // with due work out (it serves the endpoints waiting longest, as many as its limit can serve
      // at their room, and some had less due than their room). Otherwise wait for what would let a
      // claim find more — room, or a finished send (its endpoint has a free slot again) — or the poll.
      if (!running || (room > 0 && claimed === room) || (!sawAllDue && claimed > 0)) continue;
      waitingFor = room === 0 ? 'room' : sending.size > 0 ? 'send' : 'poll';
      // A send finished or a batch was recorded during the claim: that is the wake-up already.
      const woken = progress !== progressBefore || (await pause(pollMs));
      waitingFor = 'poll';
      // Let a few more sends finish, so one claim serves several free slots.
      if (woken && running) await new Promise((resolve) => setTimeout(resolve, COALESCE_MS));
    }
  })();

  /** Waits for the sends under way and their recording. */
  const settled = async () => {
    await worker;
    while (sends.size > 0 || recording) await (recording ?? Promise.all(sends));
  };

  return {
    async stop(options = {}) {
      running = false;
      wakeUp();
      let timer: NodeJS.Timeout | undefined;
      if (options.handBackAfterMs !== undefined) timer = setTimeout(() => cut.abort(), options.handBackAfterMs);
      options.handBackWhen?.then(
        () => cut.abort(),
        () => cut.abort(),
      );
      try {
        await settled();
      } finally {
        clearTimeout(timer);
      }
      try {
        await releaseWebhookClaims(deps, handedBack.splice(0));
      } catch (error) {
        // Their leases run out instead, and then they are due again.
        log.error({ err: error }, 'could not give back the webhook deliveries cut short by shutdown');
      }
    },
  };
}
