/**
 * Work a use case starts after its answer and does not wait for (a receipt sent after the commit).
 * Kept count of, so that shutdown can let it finish and a caller can wait until none is left.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();

  /** Starts `work`; its failure is the work's own business (it logs or swallows it). */
  start(work: () => Promise<void>): void {
    const done: Promise<void> = work()
      .catch(() => undefined)
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves once nothing started before or while waiting is still running. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
