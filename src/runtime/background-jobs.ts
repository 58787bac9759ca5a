import type { Deps } from '../domain/ports';
import type { WebhookSender } from '../domain/webhooks';
import { deliverDueWebhooks } from '../domain/use-cases/deliver-due-webhooks';
import { purgeExpiredApiRecords } from '../domain/use-cases/purge-expired-api-records';

export interface BackgroundJobs {
  /** Stops polling and waits for deliveries under way to be recorded. */
  stop(): Promise<void>;
}

interface Log {
  error(details: object, message: string): void;
}

/**
 * The jobs every `tillpoint serve` instance runs: the webhook worker (polls the outbox; several
 * instances share it safely through leases) and the purge of expired idempotency records and
 * rate-limit windows.
 */
export function startBackgroundJobs(options: {
  deps: Deps;
  sender: WebhookSender;
  log: Log;
  /** Pause between polls when nothing was due. */
  pollMs?: number;
  purgeEveryMs?: number;
}): BackgroundJobs {
  const { deps, sender, log } = options;
  const pollMs = options.pollMs ?? 1000;
  let running = true;
  let wake: (() => void) | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const worker = (async () => {
    while (running) {
      let attempted = 0;
      try {
        attempted = await deliverDueWebhooks(deps, { sender });
      } catch (error) {
        log.error({ err: error }, 'webhook delivery pass failed');
      }
      if (attempted === 0 && running) await pause(pollMs);
    }
  })();

  const purge = setInterval(() => {
    purgeExpiredApiRecords(deps).catch((error) => log.error({ err: error }, 'purge of expired API records failed'));
  }, options.purgeEveryMs ?? 10 * 60_000);
  purge.unref();

  return {
    async stop() {
      running = false;
      clearInterval(purge);
      (wake as (() => void) | null)?.();
      await worker;
    },
  };
}
