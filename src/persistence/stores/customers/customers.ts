import { customers, savedPaymentMethods } from '../../../domain/customers/entities';
import type { UnitOfWork } from '../../../domain/deps';
import { Query, scoped } from '../../list-query';
import type { SqlExecutor } from '../../sql-client';
import { assignments, fieldValues, placeholders, type Row } from '../../rows';
import { columnsOf, rowReader } from '../../resource-rows';

/** A customer's row, read and written as its definition says (resource-rows.ts). */
const toCustomer = rowReader(customers);
const customerFields = columnsOf(customers);
const customerUpdates = columnsOf(customers, 'updated');
const updatedColumns = customerUpdates.map(([column]) => column);
const insertCustomer = `INSERT INTO ${customers.table} (${customerFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, customerFields.length)})`;
const updateCustomer = `UPDATE ${customers.table} SET ${assignments(updatedColumns, 2)} WHERE id = $1`;

/** Customers; deleting one detaches it from its payments and sessions in the same statement. */
export function customerRepositories(db: SqlExecutor): Pick<UnitOfWork, 'customers'> {
  return {
    customers: {
      async insert(c) {
        await db.query(insertCustomer, fieldValues(customerFields, c));
      },
      async get(scope, id, options = {}) {
        const { rows } = await db.query<Row>(
          `SELECT * FROM customers WHERE id = $1 AND account_id = $2 AND mode = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
          [id, scope.accountId, scope.mode],
        );
        return rows[0] ? toCustomer(rows[0]) : null;
      },
      async update(c) {
        await db.query(updateCustomer, [c.id, ...fieldValues(customerUpdates, c)]);
      },
      async delete(scope, id) {
        const { rows } = await db.query<{ deleted: number }>(
          `WITH gone AS (DELETE FROM customers WHERE id = $1 AND account_id = $2 AND mode = $3 RETURNING id),
                payments_detached AS (UPDATE payments SET customer_id = NULL WHERE customer_id IN (SELECT id FROM gone)),
                sessions_detached AS (UPDATE checkout_sessions SET customer_id = NULL WHERE customer_id IN (SELECT id FROM gone)),
                methods_gone AS (DELETE FROM payment_methods WHERE customer_id IN (SELECT id FROM gone))
           SELECT count(*)::int AS deleted FROM gone`,
          [id, scope.accountId, scope.mode],
        );
        return Number(rows[0]!.deleted) === 1;
      },
      async list(scope, filter) {
        const q = new Query();
        const scopeSql = scoped(q, scope);
        if (filter.email) q.where(`lower(email) = lower(${q.param(filter.email)})`);
        q.after('customers', 'created_at', filter.startingAfter, scopeSql);
        const { rows } = await db.query<Row>(
          `SELECT * FROM customers WHERE ${q.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.param(filter.limit)}`,
          q.params,
        );
        return rows.map(toCustomer);
      },
      async listGuests(scope, filter) {
        const q = new Query();
        scoped(q, scope);
        q.where(`customer_id IS NULL AND customer_email IS NOT NULL AND status = 'succeeded'`);
        if (filter.email) q.where(`lower(customer_email) = lower(${q.param(filter.email)})`);
        const { rows } = await db.query<{ email: string; payments: number | string; last_payment_at: string | Date }>(
          `SELECT min(customer_email) AS email, count(*) AS payments, max(created_at) AS last_payment_at
           FROM payments WHERE ${q.sql}
           GROUP BY lower(customer_email) ORDER BY max(created_at) DESC, lower(customer_email) LIMIT ${q.param(filter.limit)}`,
          q.params,
        );
        return rows.map((row) => ({ email: row.email, payments: Number(row.payments), lastPaymentAt: new Date(row.last_payment_at) }));
      },
    },
  };
}

/** A saved payment method's row, read and written as its definition says. */
const toSavedPaymentMethod = rowReader(savedPaymentMethods);
const methodFields = columnsOf(savedPaymentMethods);
const insertMethod = `INSERT INTO ${savedPaymentMethods.table} (${methodFields.map(([column]) => column).join(', ')}) VALUES (${placeholders(1, methodFields.length)})`;

/** Customers' saved payment methods (the processor's token and what may be shown; never the card). */
export function savedPaymentMethodRepositories(db: SqlExecutor): Pick<UnitOfWork, 'savedPaymentMethods'> {
  return {
    savedPaymentMethods: {
      async insert(m) {
        await db.query(insertMethod, fieldValues(methodFields, m));
      },
      async get(scope, id) {
        const { rows } = await db.query<Row>(`SELECT * FROM payment_methods WHERE id = $1 AND account_id = $2 AND mode = $3`, [
          id,
          scope.accountId,
          scope.mode,
        ]);
        return rows[0] ? toSavedPaymentMethod(rows[0]) : null;
      },
      async listForCustomer(scope, customerId) {
        const { rows } = await db.query<Row>(
          `SELECT * FROM payment_methods WHERE customer_id = $1 AND account_id = $2 AND mode = $3 ORDER BY created_at DESC, id DESC`,
          [customerId, scope.accountId, scope.mode],
        );
        return rows.map(toSavedPaymentMethod);
      },
      async delete(scope, id) {
        const { rowCount } = await db.query(`DELETE FROM payment_methods WHERE id = $1 AND account_id = $2 AND mode = $3`, [id, scope.accountId, scope.mode]);
        return rowCount === 1;
      },
    },
  };
}
