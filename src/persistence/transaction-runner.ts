import type { SqlExecutor } from './sql-executor';

type Result = { rows: Record<string, unknown>[]; rowCount: number };

/** One connection's side of a transaction, as `runTransaction` drives it. */
export interface TransactionConnection {
  begin(): Promise<void>;
  /** A statement inside the transaction begun. */
  query(text: string, params: unknown[]): Promise<Result>;
  /** A script of several statements inside the transaction begun (migrations). */
  exec(script: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/**
 * Runs `work` as one transaction: BEGIN before its first statement (a transaction that sends none
 * costs nothing), COMMIT when it returns, ROLLBACK when it throws.
 */
export async function runTransaction<T>(connection: TransactionConnection, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  let begun: Promise<void> | null = null;
  const started = async () => {
    begun ??= connection.begin();
    await begun;
  };
  const tx: SqlExecutor = {
    async query<R>(text: string, params: unknown[] = []) {
      await started();
      return (await connection.query(text, params)) as { rows: R[]; rowCount: number };
    },
    async exec(script: string) {
      await started();
      await connection.exec(script);
    },
  };
  try {
    const result = await work(tx);
    if (begun) await connection.commit();
    return result;
  } catch (error) {
    if (begun) await connection.rollback().catch(() => undefined);
    throw error;
  }
}
