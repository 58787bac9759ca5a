import type { Deps } from '../domain/ports';
import type { WebhookSender } from '../domain/webhooks';
import { deliverDueWebhooks } from '../domain/use-cases/deliver-due-webhooks';

export interface WebhookWorker {
  /** Stops polling and waits for deliveries under way to be recorded. */
  stop(): Promise<void>;
}

interface Log {
  error(details: object, message: string): void;
}

/**
 * The webhook worker every `tillpoint serve` instance runs: it polls the outbox for due deliveries,
 * right away again while there is work; several instances share it safely through leases.
 */
export function startWebhookWorker(options: {
  deps: Deps;
  sender: WebhookSender;
  log: Log;
  /** Pause between polls when nothing was due. */
  pollMs?: number;
}): WebhookWorker {
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

  return {
    async stop() {
      running = false;
      (wake as (() => void) | null)?.();
      await worker;
    },
  };
}
