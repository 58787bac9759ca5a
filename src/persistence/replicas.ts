import type { SqlClient } from './sql-executor';

/**
 * Read replicas (DATABASE_REPLICA_URL): streaming standbys of the primary, and how far behind each
 * one is. Every `checkEveryMs` the primary's write position (`pg_current_wal_lsn()`) is noted with
 * the time it was asked for, and each replica's replayed position (`pg_last_wal_replay_lsn()`) is
 * read. A replica that has replayed the position noted at time `t` holds every commit acknowledged
 * before `t`: it is at most `now − t` behind, for the latest such `t`. That bound holds whether the
 * primary is busy or idle (an idle primary's position does not move, so a caught-up replica is
 * always past the latest note), unlike the age of the last replayed transaction.
 *
 * A replica is used while it answered its last check, is in recovery (a standby, not a server
 * promoted away from this primary) and is at most `maxLagMs` behind; a read that finds it
 * unreachable sets it aside until a check finds it back.
 */
export interface ReplicaSet {
  /** A replica to read from now, in turn among those current enough; null: read the primary. */
  pick(): SqlClient | null;
  /** A read on `replica` failed as unavailable: not used again until a check finds it answering. */
  lost(replica: SqlClient): void;
  /** Each replica in order of DATABASE_REPLICA_URL: whether it is used now, and its bound on lag (null: unknown). */
  status(): ReplicaStatus[];
  /** Runs one round of checks at once (start-up, tests). */
  check(): Promise<void>;
  /** Stops checking and closes the replicas' connections. */
  close(): Promise<void>;
}

export interface ReplicaStatus {
  up: boolean;
  lagMs: number | null;
  used: boolean;
}

/** A write position, `X/Y` in PostgreSQL's notation, as a number of bytes. */
export function walPosition(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  if (high === undefined || low === undefined) throw new Error(`not a WAL position: ${lsn}`);
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

interface Note {
  at: number;
  position: bigint;
}

interface Replica {
  db: SqlClient;
  up: boolean;
  /** The latest time before which every commit is known to be on this replica; null: none known. */
  currentAsOf: number | null;
  checking: Promise<void> | null;
}

export function watchReplicas(
  primary: SqlClient,
  clients: SqlClient[],
  options: { maxLagMs: number; checkEveryMs?: number; now?: () => number; onError?: (error: Error) => void },
): ReplicaSet {
  const now = options.now ?? (() => performance.now());
  const checkEveryMs = options.checkEveryMs ?? Math.max(50, Math.min(1000, Math.floor(options.maxLagMs / 4)));
  const replicas: Replica[] = clients.map((db) => ({ db, up: false, currentAsOf: null, checking: null }));
  let notes: Note[] = [];
  let turn = 0;
  let closed = false;

  const lagOf = (replica: Replica, at: number) => (replica.currentAsOf === null ? null : Math.max(0, at - replica.currentAsOf));
  const usable = (replica: Replica, at: number) => {
    const lag = lagOf(replica, at);
    return replica.up && lag !== null && lag <= options.maxLagMs;
  };

  const checkReplica = async (replica: Replica) => {
    try {
      const { rows } = await replica.db.query<{ standby: boolean; replayed: string | null }>(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed',
      );
      const row = rows[0];
      if (!row?.standby || !row.replayed) {
        replica.up = false;
        return;
      }
      const replayed = walPosition(row.replayed);
      let asOf: number | null = null;
      for (const note of notes) if (note.position <= replayed) asOf = note.at;
      replica.up = true;
      replica.currentAsOf = asOf === null ? replica.currentAsOf : Math.max(asOf, replica.currentAsOf ?? asOf);
    } catch (error) {
      replica.up = false;
      options.onError?.(error as Error);
    }
  };

  /** Notes the primary's position with the time it was asked for. */
  const notePrimary = async () => {
    const asked = now();
    try {
      const { rows } = await primary.query<{ position: string }>('SELECT pg_current_wal_lsn()::text AS position');
      notes.push({ at: asked, position: walPosition(rows[0]!.position) });
    } catch (error) {
      // The primary is away: the replicas' bounds age until it answers again.
      options.onError?.(error as Error);
    }
    // Notes older than the bound cannot make a replica usable; the newest is kept in any case.
    const oldest = now() - options.maxLagMs - 2 * checkEveryMs;
    notes = notes.filter((note, index) => note.at >= oldest || index === notes.length - 1);
  };

  /** Checks `replica` unless its last check is still waiting (a connect timeout holds up only its own checks). */
  const checkOnce = (replica: Replica) => {
    replica.checking ??= checkReplica(replica).finally(() => {
      replica.checking = null;
    });
    return replica.checking;
  };

  let noting: Promise<void> | null = null;
  const check = async () => {
    noting ??= notePrimary().finally(() => {
      noting = null;
    });
    await noting;
    await Promise.all(replicas.map(checkOnce));
  };

  const timer = setInterval(() => {
    if (!closed && !noting) void check();
  }, checkEveryMs);
  timer.unref();

  return {
    pick() {
      const at = now();
      for (let i = 0; i < replicas.length; i++) {
        const replica = replicas[(turn + i) % replicas.length]!;
        if (usable(replica, at)) {
          turn = (turn + i + 1) % replicas.length;
          return replica.db;
        }
      }
      return null;
    },
    lost(db) {
      const replica = replicas.find((candidate) => candidate.db === db);
      if (replica) replica.up = false;
    },
    status() {
      const at = now();
      return replicas.map((replica) => ({ up: replica.up, lagMs: lagOf(replica, at), used: usable(replica, at) }));
    },
    check,
    async close() {
      closed = true;
      clearInterval(timer);
      await noting;
      await Promise.all(replicas.map((replica) => replica.db.close().catch(() => undefined)));
    },
  };
}
