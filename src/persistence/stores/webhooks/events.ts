import type { UnitOfWork } from '../../../domain/deps';
import type { SqlExecutor } from '../../sql-client';
import { scopedGetQuery, scopedListQuery, type ListFilter } from '../../list-query';
import { insertEventWithDeliveries, toEvent } from './endpoints-and-deliveries';

/** Events: each inserted with the webhook deliveries it fans out to (one statement). */
export function eventRepositories(db: SqlExecutor): Pick<UnitOfWork, 'events'> {
  return {
    events: {
      async insert(e) {
        await insertEventWithDeliveries(db, e);
      },
      async listForObject(objectId) {
        const { rows } = await db.query('SELECT * FROM events WHERE object_id = $1 ORDER BY created_at, id', [objectId]);
        return rows.map(toEvent);
      },
      async get(scope, id) {
        const query = scopedGetQuery('events', scope, id);
        const { rows } = await db.query(query.text, query.params);
        return rows[0] ? toEvent(rows[0]) : null;
      },
      async list(scope, filter) {
        const filters: ListFilter[] = [];
        if (filter.type) filters.push({ column: 'type', value: filter.type });
        if (filter.createdGte) filters.push({ column: 'created_at', op: '>=', value: filter.createdGte });
        if (filter.createdLte) filters.push({ column: 'created_at', op: '<=', value: filter.createdLte });
        const query = scopedListQuery('events', scope, filter, filters);
        const { rows } = await db.query(query.text, query.params);
        return rows.map(toEvent);
      },
    },
  };
}
