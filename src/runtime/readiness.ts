import { migrations } from '../persistence/migrations/index';
import type { SqlClient } from '../persistence/sql-client';

/** What `/readyz` reports: ready only when every check passes. */
export interface ReadinessReport {
  ready: boolean;
  checks: {
    database: 'ok' | 'unreachable' | 'not_checked';
    /** `behind`: the schema lacks a migration this version needs (run `tillpoint migrate`). */
    migrations: 'current' | 'behind' | 'unknown';
    shutting_down: boolean;
  };
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  /** From now on the instance reports not ready (a shutdown has begun). */
  beginShutdown(): void;
  readonly shuttingDown: boolean;
}

const latestMigration = Math.max(...migrations.map((migration) => migration.version));

/**
 * Readiness for a load balancer: the database answers within `timeoutMs` (counted from rows, not
 * `rowCount`, which PGlite leaves at 0 for a SELECT), the schema has every migration this version
 * knows (a newer one from a newer instance is fine during a rolling upgrade), and no shutdown has
 * begun.
 */
export function createReadiness(db: SqlClient, options: { timeoutMs?: number } = {}): Readiness {
  let shuttingDown = false;
  const timeoutMs = options.timeoutMs ?? 2000;
  return {
    get shuttingDown() {
      return shuttingDown;
    },
    beginShutdown() {
      shuttingDown = true;
    },
    async check() {
      let database: ReadinessReport['checks']['database'] = shuttingDown ? 'not_checked' : 'unreachable';
      let schema: ReadinessReport['checks']['migrations'] = 'unknown';
      if (!shuttingDown) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), timeoutMs);
        });
        const read = db
          .query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')
          .then(({ rows }) => rows)
          .catch(() => null);
        const rows = await Promise.race([read, timeout]);
        clearTimeout(timer);
        if (rows && rows.length === 1) {
          database = 'ok';
          schema = Number(rows[0]!.version ?? 0) >= latestMigration ? 'current' : 'behind';
        }
      }
      return {
        ready: !shuttingDown && database === 'ok' && schema === 'current',
        checks: { database, migrations: schema, shutting_down: shuttingDown },
      };
    },
  };
}
