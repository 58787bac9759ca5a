import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createCustomer } from '../../domain/customers/use-cases/create-customer';
import { deleteCustomer } from '../../domain/customers/use-cases/delete-customer';
import { getCustomer } from '../../domain/customers/use-cases/get-customer';
import { listCustomers } from '../../domain/customers/use-cases/list-customers';
import { updateCustomer } from '../../domain/customers/use-cases/update-customer';
import { defineRoute } from '../define-route';
import { customerListSchema, customerSchema, deletedSchema, paymentMethodListSchema } from '../response-schemas';
import { listPaymentMethods } from '../../domain/customers/use-cases/list-payment-methods';
import { deletePaymentMethod } from '../../domain/customers/use-cases/delete-payment-method';
import { paymentMethodView } from '../views/payment-method';
import { createCustomerBody, listCustomersQuery, updateCustomerBody } from '../lifecycle-schemas';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';
import { customerView } from '../views/customer';

const tag = 'Customers';

/** `/v1/customers`. */
export async function customerRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    { method: 'POST', url: '/v1/customers', resource: 'customers', tag, summary: 'Create a customer', body: createCustomerBody, response: customerSchema },
    async ({ body, request }) => {
      const { test_clock: testClockId, preferred_locales: preferredLocales, ...input } = body;
      return customerView(
        await createCustomer(deps, { scope: scopeOf(request), actor: keyActorOf(request), input: { ...input, preferredLocales, testClockId } }),
      );
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/customers',
      resource: 'customers',
      tag,
      summary: 'List customers, newest first',
      query: listCustomersQuery,
      response: customerListSchema,
    },
    async ({ query, request }) =>
      listBody('/v1/customers', await listCustomers(deps, { scope: scopeOf(request), page: pageRequest(query), email: query.email }), customerView),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/customers/:id', resource: 'customers', tag, summary: 'Retrieve a customer', params: idParams, response: customerSchema },
    async ({ params, request }) => customerView(await getCustomer(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/customers/:id',
      resource: 'customers',
      tag,
      summary: "Update a customer's email, name, preferred languages or metadata",
      params: idParams,
      body: updateCustomerBody,
      response: customerSchema,
    },
    async ({ params, body, request }) => {
      const { preferred_locales: preferredLocales, ...input } = body;
      return customerView(
        await updateCustomer(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id, input: { ...input, preferredLocales } }),
      );
    },
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/v1/customers/:id',
      resource: 'customers',
      tag,
      summary: 'Delete a customer and its saved payment methods',
      description: 'Its payment methods are removed at the processor too. Past payments and sessions stay, with `customer` set to null.',
      params: idParams,
      response: deletedSchema,
    },
    async ({ params, request }) => {
      await deleteCustomer(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id });
      return { id: params.id, object: 'customer', deleted: true };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/customers/:id/payment_methods',
      resource: 'customers',
      tag,
      summary: "List a customer's saved payment methods, newest first",
      params: idParams,
      response: paymentMethodListSchema,
    },
    async ({ params, request }) => {
      const methods = await listPaymentMethods(deps, { scope: scopeOf(request), customerId: params.id });
      return listBody(`/v1/customers/${params.id}/payment_methods`, { data: methods, hasMore: false }, paymentMethodView);
    },
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/v1/payment_methods/:id',
      resource: 'customers',
      tag: 'Payment methods',
      summary: 'Delete a saved payment method, at the processor too',
      params: idParams,
      response: deletedSchema,
    },
    async ({ params, request }) => {
      await deletePaymentMethod(deps, { scope: scopeOf(request), actor: keyActorOf(request), id: params.id });
      return { id: params.id, object: 'payment_method', deleted: true };
    },
  );
}
