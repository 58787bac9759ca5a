import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps';
import { createCoupon } from '../../domain/pricing/use-cases/create-coupon';
import { createPromotionCode } from '../../domain/pricing/use-cases/create-promotion-code';
import { getCoupon } from '../../domain/pricing/use-cases/get-coupon';
import { getPromotionCode } from '../../domain/pricing/use-cases/get-promotion-code';
import { listCoupons } from '../../domain/pricing/use-cases/list-coupons';
import { listPromotionCodes } from '../../domain/pricing/use-cases/list-promotion-codes';
import { defineRoute } from '../define-route';
import { couponListSchema, couponSchema, promotionCodeListSchema, promotionCodeSchema, taxRateListSchema, taxRateSchema } from '../response-schemas';
import {
  couponInputOf,
  createCouponBody,
  createPromotionCodeBody,
  createTaxRateBody,
  listPromotionCodesQuery,
  pageQuery,
  promotionCodeInputOf,
  taxRateInputOf,
} from '../lifecycle-schemas';
import { createTaxRate } from '../../domain/pricing/use-cases/create-tax-rate';
import { getTaxRate } from '../../domain/pricing/use-cases/get-tax-rate';
import { listTaxRates } from '../../domain/pricing/use-cases/list-tax-rates';
import { keyActorOf, scopeOf } from '../merchant-auth';
import { listBody, pageRequest } from '../pagination';
import { idParams } from '../schemas';
import { couponView, promotionCodeView, taxRateView } from '../views/coupon';

const tag = 'Discounts';

/** `/v1/coupons`, `/v1/promotion_codes` and `/v1/tax_rates`. */
export async function couponRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/coupons',
      resource: 'coupons',
      tag,
      summary: 'Create a coupon: a percentage or an amount off',
      body: createCouponBody,
      response: couponSchema,
    },
    async ({ body, request }) => couponView(await createCoupon(deps, { scope: scopeOf(request), actor: keyActorOf(request), input: couponInputOf(body) })),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/coupons', resource: 'coupons', tag, summary: 'List coupons, newest first', query: pageQuery, response: couponListSchema },
    async ({ query, request }) => listBody('/v1/coupons', await listCoupons(deps, { scope: scopeOf(request), page: pageRequest(query) }), couponView),
  );

  defineRoute(
    app,
    { method: 'GET', url: '/v1/coupons/:id', resource: 'coupons', tag, summary: 'Retrieve a coupon', params: idParams, response: couponSchema },
    async ({ params, request }) => couponView(await getCoupon(deps, { scope: scopeOf(request), id: params.id })),
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/promotion_codes',
      resource: 'promotion_codes',
      tag,
      summary: 'Create a promotion code for a coupon',
      description: 'Shoppers type `code` (any case) on a session opened with `allow_promotion_codes: true`.',
      body: createPromotionCodeBody,
      response: promotionCodeSchema,
    },
    async ({ body, request }) => {
      const { promotionCode, coupon } = await createPromotionCode(deps, {
        scope: scopeOf(request),
        actor: keyActorOf(request),
        input: promotionCodeInputOf(body),
      });
      return promotionCodeView(promotionCode, coupon);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/promotion_codes',
      resource: 'promotion_codes',
      tag,
      summary: 'List promotion codes, newest first',
      query: listPromotionCodesQuery,
      response: promotionCodeListSchema,
    },
    async ({ query, request }) =>
      listBody('/v1/promotion_codes', await listPromotionCodes(deps, { scope: scopeOf(request), page: pageRequest(query), code: query.code }), (item) =>
        promotionCodeView(item.promotionCode, item.coupon),
      ),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/promotion_codes/:id',
      resource: 'promotion_codes',
      tag,
      summary: 'Retrieve a promotion code',
      params: idParams,
      response: promotionCodeSchema,
    },
    async ({ params, request }) => {
      const { promotionCode, coupon } = await getPromotionCode(deps, { scope: scopeOf(request), id: params.id });
      return promotionCodeView(promotionCode, coupon);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/v1/tax_rates',
      resource: 'tax_rates',
      tag: 'Tax rates',
      summary: 'Create a tax rate, inclusive or exclusive',
      body: createTaxRateBody,
      response: taxRateSchema,
    },
    async ({ body, request }) => taxRateView(await createTaxRate(deps, { scope: scopeOf(request), actor: keyActorOf(request), input: taxRateInputOf(body) })),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/tax_rates',
      resource: 'tax_rates',
      tag: 'Tax rates',
      summary: 'List tax rates, newest first',
      query: pageQuery,
      response: taxRateListSchema,
    },
    async ({ query, request }) => listBody('/v1/tax_rates', await listTaxRates(deps, { scope: scopeOf(request), page: pageRequest(query) }), taxRateView),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/v1/tax_rates/:id',
      resource: 'tax_rates',
      tag: 'Tax rates',
      summary: 'Retrieve a tax rate',
      params: idParams,
      response: taxRateSchema,
    },
    async ({ params, request }) => taxRateView(await getTaxRate(deps, { scope: scopeOf(request), id: params.id })),
  );
}
