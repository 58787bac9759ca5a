import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import type { Customer } from '../../domain/customers/entities';
import { deleteCustomer } from '../../domain/customers/use-cases/delete-customer';
import { getCustomer } from '../../domain/customers/use-cases/get-customer';
import { listPaymentMethods } from '../../domain/customers/use-cases/list-payment-methods';
import { searchCustomers } from '../../domain/customers/use-cases/search-customers';
import { listGuestCustomers } from '../../domain/customers/use-cases/list-guest-customers';
import { maskEmail } from '../../domain/sessions/customer-email';
import type { Membership } from '../../domain/team/entities';
import { listQuery } from '../schemas';
import { customerView } from '../views/customer';
import { paymentMethodView } from '../views/payment-method';
import { seesEmails } from '../views/payment';
import { modeEndpoint, type DashboardEndpoint } from './dashboard-route';
import { base, objectParams, scopeParams } from './mode-endpoints';
import { customerDetailSchema, dashboardCustomerListSchema, guestCustomerListSchema } from './response-schemas';

const tag = 'Dashboard: customers';

/** A customer as the dashboard shows it: the email masked for members who do not see emails. */
function dashboardCustomerView(customer: Customer, membership: Membership) {
  const view = customerView(customer);
  return { ...view, email: seesEmails(membership) ? view.email : maskEmail(view.email) };
}

/**
 * The Customers page and a customer's page: reading needs `customers.read` (every role; emails
 * masked, and no search by email, for roles without `customers.read_email`); deleting needs
 * `customers.delete` (owner, admin), through the merchant API's use case: saved methods removed at
 * the processor, past payments kept with the customer detached, the deletion audited against the member.
 * A customer's payments are the payment list's `customer` filter.
 */
export function customerEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/customers`,
        response: dashboardCustomerListSchema,
        tag,
        summary: 'Customers, newest first, or those with one email address (any case)',
        params: scopeParams,
        query: z.strictObject({ ...listQuery, limit: listQuery.limit.default(25), email: z.string().trim().min(1).max(254).optional() }),
        permission: 'customers.read',
      },
      async ({ query, scope, member }) => {
        const page = await searchCustomers(deps, {
          scope,
          page: { limit: query.limit, startingAfter: query.starting_after },
          email: query.email,
          role: member.membership.role,
        });
        return { object: 'list', has_more: page.hasMore, data: page.data.map((c) => dashboardCustomerView(c, member.membership)) };
      },
    ),
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/guest-customers`,
        response: guestCustomerListSchema,
        tag,
        summary: 'Guests: shoppers who paid with an email and are no customer, most recent payment first (read-only)',
        params: scopeParams,
        query: z.strictObject({ limit: listQuery.limit.default(25), email: z.string().trim().min(1).max(254).optional() }),
        permission: 'customers.read',
      },
      async ({ query, scope, member }) => {
        const guests = await listGuestCustomers(deps, { scope, limit: query.limit, email: query.email, role: member.membership.role });
        return {
          object: 'list',
          has_more: guests.hasMore,
          data: guests.data.map((g) => ({
            object: 'guest_customer',
            email: seesEmails(member.membership) ? g.email : maskEmail(g.email),
            payments: g.payments,
            last_payment: Math.floor(g.lastPaymentAt.getTime() / 1000),
          })),
        };
      },
    ),
    modeEndpoint(
      {
        method: 'GET',
        url: `${base}/customers/:id`,
        response: customerDetailSchema,
        tag,
        summary: 'A customer with its saved payment methods (brand, last4, expiry)',
        params: objectParams,
        permission: 'customers.read',
      },
      async ({ params, scope, member }) => {
        const customer = await getCustomer(deps, { scope, id: params.id });
        const methods = await listPaymentMethods(deps, { scope, customerId: customer.id });
        return { ...dashboardCustomerView(customer, member.membership), payment_methods: methods.map(paymentMethodView) };
      },
    ),
    modeEndpoint(
      {
        method: 'DELETE',
        url: `${base}/customers/:id`,
        tag,
        summary: 'Delete a customer: its saved payment methods go at the processor too; its payments stay, detached',
        params: objectParams,
        permission: 'customers.delete',
      },
      async ({ params, scope, member }) => {
        await deleteCustomer(deps, { scope, actor: member.actor, id: params.id });
        return { id: params.id, object: 'customer', deleted: true };
      },
    ),
  ];
}
