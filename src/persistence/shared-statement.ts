import type { SqlClient, SqlExecutor } from './sql-executor';
import { isDatabaseUnreachable, lostTheDatabase } from './database-errors';

/**
 * A statement written over a set of members, which callers that arrive together share: one
 * statement and one commit for many payments instead of one each (docs/performance.md, ADR 0075).
 * The SQL is written out in the store that sends it; this file only gathers the members and
 * settles each one's answer.
 *
 * The SQL reads its members from `$1`, a JSON array of records (`recordSet` in rows.ts), each with
 * its position `n`, and answers one row per member carrying that `n`. A statement that locks rows
 * comes in two texts differing only in their lock clause: `shared`, which takes each row lock with
 * `SKIP LOCKED` and answers `SKIPPED` for a member whose row is locked elsewhere, and `alone`,
 * which waits for its locks (within the connection's lock timeout). So a member never waits for a
 * stranger's lock: it is answered from the shared statement, or sent on alone. Nothing here reads
 * the SQL; the members are data.
 */
export interface SharedStatement<M, R> {
  /** The statement over many members, skipping rows locked elsewhere. */
  readonly shared: string;
  /** The same statement for one member, waiting for its locks. */
  readonly alone: string;
  /**
   * The row a member is about (its session, say): members about the same row never share a
   * statement, whose answer could not say which of them changed it.
   */
  key(member: M): string;
  /** One member's values, as elements of its record's JSON array (`RecordPart.values`), without `n`. */
  member(member: M): string;
  /** A member's answer from its row, or SKIPPED when a row it needs was locked elsewhere. */
  answer(row: Record<string, unknown>): R | typeof SKIPPED;
  /**
   * A read, which writes and locks nothing: members about the same row that arrive in one turn are
   * one member of the statement, and share its answer.
   */
  readonly read?: boolean;
}

export const SKIPPED: unique symbol = Symbol('skipped');

/** Members in one statement at most: more than this go in several, on several connections. */
const MAX_SHARED_MEMBERS = 25;

interface Waiting<M, R> {
  member: M;
  resolve(answer: R): void;
  reject(error: unknown): void;
}

/** Members waiting for the next turn of the event loop, by client and statement. */
// Each statement's queue holds that statement's members (`Waiting<M, R>`, read back as such in runShared).
const waiting = new WeakMap<SqlClient, Map<object, unknown[]>>();

const isClient = (db: SqlExecutor): db is SqlClient => typeof (db as Partial<SqlClient>).transaction === 'function';

/**
 * Runs `statement` for `member`. On a client (not inside a transaction) the member waits for the
 * end of the current turn of the event loop, and every member that arrived meanwhile goes in the
 * same statement (at most MAX_SHARED_MEMBERS to one). Inside a transaction, or alone in its turn,
 * it runs alone.
 */
export function runShared<M, R>(db: SqlExecutor, statement: SharedStatement<M, R>, member: M): Promise<R> {
  if (!isClient(db)) return runAlone(db, statement, member);
  let byStatement = waiting.get(db);
  if (!byStatement) waiting.set(db, (byStatement = new Map()));
  let queue = byStatement.get(statement) as Waiting<M, R>[] | undefined;
  if (!queue) {
    byStatement.set(statement, (queue = []));
    setImmediate(() => {
      byStatement.delete(statement);
      let groups: Waiting<M, R>[][];
      try {
        groups = statements(statement, statement.read ? sameRowOnce(statement, queue!) : queue!);
      } catch (error) {
        for (const each of queue!) each.reject(error);
        return;
      }
      for (const members of groups) void send(db, statement, members);
    });
  }
  return new Promise<R>((resolve, reject) => queue!.push({ member, resolve, reject }));
}

/** A read's members of one turn, those about the same row as one, whose answer each of them is given. */
function sameRowOnce<M, R>(statement: SharedStatement<M, R>, queue: Waiting<M, R>[]): Waiting<M, R>[] {
  const byKey = new Map<string, Waiting<M, R>[]>();
  for (const each of queue) {
    const key = statement.key(each.member);
    const same = byKey.get(key);
    if (same) same.push(each);
    else byKey.set(key, [each]);
  }
  return [...byKey.values()].map((same) => ({
    member: same[0]!.member,
    resolve: (answer) => {
      for (const each of same) each.resolve(answer);
    },
    reject: (error) => {
      for (const each of same) each.reject(error);
    },
  }));
}

/** The members of one turn as statements: at most MAX_SHARED_MEMBERS each, none about the same row as another in it. */
function statements<M, R>(statement: SharedStatement<M, R>, queue: Waiting<M, R>[]): Waiting<M, R>[][] {
  const all: { keys: Set<string>; members: Waiting<M, R>[] }[] = [];
  for (const each of queue) {
    const key = statement.key(each.member);
    let into = all.find((s) => s.members.length < MAX_SHARED_MEMBERS && !s.keys.has(key));
    if (!into) all.push((into = { keys: new Set(), members: [] }));
    into.keys.add(key);
    into.members.push(each);
  }
  return all.map((s) => s.members);
}

/**
 * How long a member sent on alone after its shared statement's wait was cut short may wait for a
 * lock (or the connection's lock timeout, if shorter): it has already waited the whole lock timeout
 * once. A lock no one holds is granted at once, so the members whose rows are free still pass; with
 * a whole table locked (DDL), 150 members resent on a pool of 10 add about 0.3 s, not 15 s.
 */
export const RESENT_LOCK_WAIT_MS = 20;

async function runAlone<M, R>(db: SqlExecutor, statement: SharedStatement<M, R>, member: M, waited = false): Promise<R> {
  const values = [`[[0,${statement.member(member)}]]`];
  const { rows } =
    waited && isClient(db)
      ? await db.transaction(async (tx) => {
          await tx.query(
            `SELECT set_config('lock_timeout', ceil(1000 * extract(epoch FROM least(nullif(current_setting('lock_timeout')::interval, interval '0'), $1::interval)))::int::text, true)`,
            [`${RESENT_LOCK_WAIT_MS} ms`],
          );
          return tx.query(statement.alone, values);
        })
      : await db.query(statement.alone, values);
  const answer = rows[0] ? statement.answer(rows[0]) : SKIPPED;
  // Waiting for its locks, a statement alone is never skipped.
  if (answer === SKIPPED) throw new Error('A statement run alone answered as skipped');
  return answer;
}

/**
 * One statement for `members`, each settled exactly once: from its row; sent on alone when its row
 * was locked elsewhere or the statement failed as a whole (one member's broken constraint fails
 * them all: alone, only that one fails). A statement that failed as `database_unavailable` (a lock
 * or statement timeout: a lock outside the rows it skips, a table locked by DDL) has already waited
 * the lock timeout for its members, so alone each waits at most RESENT_LOCK_WAIT_MS more: no member
 * waits the lock timeout twice. One that lost the database is not sent again (`lostTheDatabase`).
 */
async function send<M, R>(db: SqlClient, statement: SharedStatement<M, R>, members: Waiting<M, R>[]): Promise<void> {
  const alone = (each: Waiting<M, R>, waited = false) => runAlone(db, statement, each.member, waited).then(each.resolve, each.reject);
  if (members.length === 1) return alone(members[0]!);
  let rows: Record<string, unknown>[];
  try {
    const parameter = `[${members.map((each, n) => `[${n},${statement.member(each.member)}]`).join(',')}]`;
    ({ rows } = await db.query(statement.shared, [parameter]));
  } catch (error) {
    // The database out of reach, the statement may have been committed with its answer lost: sent
    // again alone, each member would find its own work done (a duplicate, a payment moved). Each is
    // answered as one member alone is, `database_unavailable`: its caller retries, or reconciles.
    if (lostTheDatabase(error)) {
      for (const each of members) each.reject(error);
      return;
    }
    // What is left of database_unavailable is a wait cut short by its bound (lock or statement timeout).
    const waited = isDatabaseUnreachable(error);
    await Promise.all(members.map((each) => alone(each, waited)));
    return;
  }
  const answers = new Map<number, Record<string, unknown>>();
  for (const row of rows) answers.set(Number(row.n), row);
  await Promise.all(
    members.map(async (each, n) => {
      try {
        const row = answers.get(n);
        const answer = row ? statement.answer(row) : SKIPPED;
        if (answer === SKIPPED) await alone(each);
        else each.resolve(answer);
      } catch (error) {
        each.reject(error);
      }
    }),
  );
}
