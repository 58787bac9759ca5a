import type pg from 'pg';
import type { ApiKeyChangeListener, ApiKeyChanges } from '../domain/api-guards/ports';
import type { SqlClient } from './sql-client';

/**
 * The channel migration 0013's triggers announce API key changes on: `<schema> <key id>`, or
 * `<schema> *` for all (the channel is the database's: installs in other schemas share it).
 */
export const API_KEY_CHANNEL = 'tillpoint_api_keys';

/** Waits between attempts to listen again after the connection was lost. */
const RECONNECT_MS = [250, 1000, 2000, 5000];
/** A listening connection that does not answer a ping within this long counts as lost. */
const PING_MS = 10_000;

export interface ApiKeyChangeFeed extends ApiKeyChanges {
  /** Stops listening for good. */
  close(): Promise<void>;
}

/**
 * PGlite: one instance per database (it holds the data directory), so this instance's own
 * changes, which it forgets itself as it makes them, are all there are.
 */
function localChanges(): ApiKeyChangeFeed {
  return { watching: true, subscribe: () => undefined, close: async () => undefined };
}

/**
 * PostgreSQL: a connection of this instance's own LISTENs on `API_KEY_CHANNEL`. Until it listens,
 * and from the moment it is lost until it listens again, `watching` is false (nothing is kept);
 * either way every listener is told to forget everything, as changes may have gone unheard. A ping
 * every `PING_MS` finds a connection that died silently.
 */
class PostgresChanges implements ApiKeyChangeFeed {
  watching = false;
  private readonly listeners: ApiKeyChangeListener[] = [];
  private client: pg.Client | null = null;
  private closed = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | null = null;
  private ping: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: SqlClient,
    private readonly onError: (error: Error) => void,
  ) {}

  subscribe(listener: ApiKeyChangeListener): void {
    this.listeners.push(listener);
  }

  /** Connects and listens; on failure, tries again later (resolving now). */
  async open(): Promise<void> {
    if (this.closed) return;
    const client = this.db.dedicated?.() ?? null;
    if (!client) return; // the database is closed
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (error) this.onError(error);
      this.lost(client);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    let schema: string | null = null;
    client.on('notification', (message) => {
      if (message.channel !== API_KEY_CHANNEL || lost || schema === null) return;
      const [from, id] = (message.payload ?? '').split(' ');
      if (from !== schema) return;
      if (!id || id === '*') this.forgetAll();
      else for (const listener of this.listeners) listener.changed(id);
    });
    try {
      await client.connect();
      // Our tables' schema (the search path's first), as the triggers name it.
      schema = String((await client.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema);
      await client.query(`LISTEN ${API_KEY_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (lost || this.closed) return;
    this.attempt = 0;
    // Whatever was looked up before now may have changed unheard.
    this.forgetAll();
    this.watching = true;
    let answered = true;
    this.ping = setInterval(() => {
      if (!answered) return onLost(new Error('the API key change feed stopped answering'));
      answered = false;
      // LISTEN again (a no-op when listening): the connection's last statement stays the LISTEN, so
      // an operator finds it in pg_stat_activity.
      client.query(`LISTEN ${API_KEY_CHANNEL}`).then(
        () => {
          answered = true;
        },
        (error: Error) => onLost(error),
      );
    }, PING_MS);
    this.ping.unref();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.watching = false;
    this.forgetAll();
    if (this.ping) clearInterval(this.ping);
    this.ping = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    const wait = RECONNECT_MS[Math.min(this.attempt, RECONNECT_MS.length - 1)]!;
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.open();
    }, wait);
    this.retry.unref();
  }

  private forgetAll(): void {
    for (const listener of this.listeners) listener.unknown();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watching = false;
    if (this.retry) clearTimeout(this.retry);
    if (this.ping) clearInterval(this.ping);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/**
 * News of API key changes for this instance: heard on a connection of its own on PostgreSQL (call
 * `open` once, at start), this instance's own on PGlite.
 */
export function apiKeyChangeFeed(db: SqlClient, options: { onError?: (error: Error) => void } = {}): ApiKeyChangeFeed & { open(): Promise<void> } {
  if (db.kind !== 'postgres' || !db.dedicated) return Object.assign(localChanges(), { open: async () => undefined });
  return new PostgresChanges(db, options.onError ?? (() => undefined));
}
