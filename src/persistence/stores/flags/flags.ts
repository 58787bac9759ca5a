import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { ExperimentKeyBusyError } from '../../../domain/flags/ports';
import type { Scope } from '../../../domain/shared/scope';
import type { Flag, Experiment } from '../../../domain/flags/entities';
import { scopedListQuery } from '../../list-query';
import { dateOrNull, isUniqueViolation, recordSet, type Row } from '../../rows';
import { runShared, type SharedStatement } from '../../shared-statement';

export function toFlag(row: Row): Flag {
  return {
    accountId: row.account_id,
    mode: row.mode,
    key: row.key,
    value: row.value,
    description: row.description,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export function toExperiment(row: Row): Experiment {
  return {
    id: row.id,
    accountId: row.account_id,
    mode: row.mode,
    key: row.key,
    description: row.description,
    status: row.status,
    variants: row.variants,
    control: row.control,
    plannedSampleSize: Number(row.planned_sample_size),
    baselineConversionRate: row.baseline_conversion_rate === null ? null : Number(row.baseline_conversion_rate),
    minimumDetectableEffect: row.minimum_detectable_effect === null ? null : Number(row.minimum_detectable_effect),
    startedAt: dateOrNull(row.started_at),
    stoppedAt: dateOrNull(row.stopped_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const experimentValues = (x: Experiment) => [
  x.key,
  x.description,
  x.status,
  JSON.stringify(x.variants),
  x.control,
  x.plannedSampleSize,
  x.baselineConversionRate,
  x.minimumDetectableEffect,
  x.startedAt,
  x.stoppedAt,
  x.updatedAt,
];

type KeysOfScope = { scope: Scope; keys: readonly string[] };

/**
 * Scopes' flags and running experiments of some keys (paying's: its kill switches and 3-D Secure),
 * the reads of many scopes made at once in one statement (shared-statement.ts), each as two JSON
 * arrays of rows (null for none). In no particular order: evaluation looks them up by key; no
 * ORDER BY and no coalesce: each added measurably to the statement's cost.
 */
const keysOfScopesSql = `WITH m AS MATERIALIZED (${recordSet([
  ['account_id', 'text'],
  ['mode', 'text'],
  ['keys', 'jsonb'],
])})
   SELECT m.n,
     (SELECT json_agg(f) FROM flags f
       WHERE f.account_id = m.account_id AND f.mode = m.mode AND f.key = ANY (ARRAY(SELECT jsonb_array_elements_text(m.keys)))) AS stored,
     (SELECT json_agg(x) FROM experiments x
       WHERE x.account_id = m.account_id AND x.mode = m.mode AND x.status = 'running'
         AND x.key = ANY (ARRAY(SELECT jsonb_array_elements_text(m.keys)))) AS running
     FROM m`;

const keysOfScopes: SharedStatement<KeysOfScope, Row> = {
  shared: keysOfScopesSql,
  alone: keysOfScopesSql,
  key: ({ scope, keys }) => `${scope.accountId}:${scope.mode}:${keys.join(',')}`,
  member: ({ scope, keys }) => JSON.stringify([scope.accountId, scope.mode, keys]).slice(1, -1),
  answer: (row) => row,
  read: true,
};

/** Flags, experiments and exposures over one SQL transaction; part of the unit of work. */
export function flagStores(db: SqlExecutor): Pick<UnitOfWork, 'flags' | 'experiments' | 'exposures'> {
  const guard = async (key: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      if (isUniqueViolation(error, 'experiments_one_running_per_key')) throw new ExperimentKeyBusyError(key);
      throw error;
    }
  };
  return {
    flags: {
      async list(scope) {
        const { rows } = await db.query('SELECT * FROM flags WHERE account_id = $1 AND mode = $2 ORDER BY key', [scope.accountId, scope.mode]);
        return rows.map(toFlag);
      },
      async listWithRunningExperiments(scope, keys) {
        if (keys) {
          const row = await runShared(db, keysOfScopes, { scope, keys });
          return { stored: ((row.stored ?? []) as Row[]).map(toFlag), running: ((row.running ?? []) as Row[]).map(toExperiment), keys };
        }
        // Both tables' rows as JSON objects, in the order `list` and `experiments.running` give them.
        const { rows } = await db.query<{ experiment: boolean; row: Row }>(
          `SELECT false AS experiment, row_to_json(f) AS row, f.key FROM flags f WHERE f.account_id = $1 AND f.mode = $2
           UNION ALL
           SELECT true, row_to_json(x), x.key FROM experiments x WHERE x.account_id = $1 AND x.mode = $2 AND x.status = 'running'
           ORDER BY experiment, key`,
          [scope.accountId, scope.mode],
        );
        const stored: Flag[] = [];
        const running: Experiment[] = [];
        for (const { experiment, row } of rows) {
          if (experiment) running.push(toExperiment(row));
          else stored.push(toFlag(row));
        }
        return { stored, running };
      },
      async get(scope, key) {
        const { rows } = await db.query('SELECT * FROM flags WHERE account_id = $1 AND mode = $2 AND key = $3', [scope.accountId, scope.mode, key]);
        return rows[0] ? toFlag(rows[0]) : null;
      },
      async insert(f) {
        await db.query(`INSERT INTO flags (account_id, mode, key, value, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
          f.accountId,
          f.mode,
          f.key,
          JSON.stringify(f.value),
          f.description,
          f.createdAt,
          f.updatedAt,
        ]);
      },
      async update(f) {
        await db.query(`UPDATE flags SET value = $4, description = $5, updated_at = $6 WHERE account_id = $1 AND mode = $2 AND key = $3`, [
          f.accountId,
          f.mode,
          f.key,
          JSON.stringify(f.value),
          f.description,
          f.updatedAt,
        ]);
      },
    },
    experiments: {
      async insert(x) {
        await guard(x.key, () =>
          db.query(
            `INSERT INTO experiments (id, account_id, mode, created_at, key, description, status, variants, control,
               planned_sample_size, baseline_conversion_rate, minimum_detectable_effect, started_at, stopped_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
            [x.id, x.accountId, x.mode, x.createdAt, ...experimentValues(x)],
          ),
        );
      },
      async get(scope, id, options = {}) {
        const { rows } = await db.query(`SELECT * FROM experiments WHERE id = $1 AND account_id = $2 AND mode = $3${options.forUpdate ? ' FOR UPDATE' : ''}`, [
          id,
          scope.accountId,
          scope.mode,
        ]);
        return rows[0] ? toExperiment(rows[0]) : null;
      },
      async list(scope, filter) {
        const query = scopedListQuery('experiments', scope, filter);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toExperiment);
      },
      async update(x) {
        await guard(x.key, () =>
          db.query(
            `UPDATE experiments SET key = $2, description = $3, status = $4, variants = $5, control = $6, planned_sample_size = $7,
               baseline_conversion_rate = $8, minimum_detectable_effect = $9, started_at = $10, stopped_at = $11, updated_at = $12
             WHERE id = $1`,
            [x.id, ...experimentValues(x)],
          ),
        );
      },
      async running(scope) {
        const { rows } = await db.query(`SELECT * FROM experiments WHERE account_id = $1 AND mode = $2 AND status = 'running' ORDER BY key`, [
          scope.accountId,
          scope.mode,
        ]);
        return rows.map(toExperiment);
      },
    },
    exposures: {
      async insert(e) {
        const { rowCount } = await db.query(
          `INSERT INTO experiment_exposures (experiment_id, checkout_session_id, variant, exposed_at, converted_at)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (experiment_id, checkout_session_id) DO NOTHING`,
          [e.experimentId, e.checkoutSessionId, e.variant, e.exposedAt, e.convertedAt],
        );
        return rowCount === 1;
      },
      async markConverted(sessionId, at) {
        await db.query(`UPDATE experiment_exposures SET converted_at = $2 WHERE checkout_session_id = $1 AND converted_at IS NULL`, [sessionId, at]);
      },
      async tally(experimentId) {
        const { rows } = await db.query<Row>(
          `SELECT variant, count(*)::int AS exposed, count(converted_at)::int AS conversions
           FROM experiment_exposures WHERE experiment_id = $1 GROUP BY variant`,
          [experimentId],
        );
        return rows.map((r) => ({ variant: r.variant, exposed: Number(r.exposed), conversions: Number(r.conversions) }));
      },
    },
  };
}
