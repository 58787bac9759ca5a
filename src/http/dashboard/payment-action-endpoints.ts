import { z } from 'zod';
import type { Deps } from '../../domain/deps';
import { cancelPayment } from '../../domain/payments/use-cases/cancel-payment';
import { capturePayment } from '../../domain/payments/use-cases/capture-payment';
import { createRefund } from '../../domain/payments/use-cases/create-refund';
import { sendReceipt } from '../../domain/payments/use-cases/send-receipt';
import { receiptView } from '../views/receipt';
import { captureBody, createRefundBody } from '../lifecycle-schemas';
import { dashboardPaymentView } from '../views/payment';
import { refundView } from '../views/refund';
import { modeEndpoint, type DashboardEndpoint } from './dashboard-route';
import { base, objectParams } from './mode-endpoints';

const tag = 'Dashboard: payments';
const refundBody = z.strictObject({ amount: createRefundBody.shape.amount, reason: createRefundBody.shape.reason });

/**
 * Capture, void and refund from the payment detail page: the merchant API's use cases, guarded by
 * `payments.capture` and `payments.refund` (and "Resend receipt", `receipts.resend`), each success written to the audit log.
 */
export function paymentActionEndpoints(deps: Deps): DashboardEndpoint[] {
  return [
    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/payments/:id/capture`,
        tag,
        summary: 'Capture an authorized payment, in full or in part',
        params: objectParams,
        body: captureBody,
        permission: 'payments.capture',
      },
      async ({ params, body, scope, member }) => {
        const payment = await capturePayment(deps, { scope, actor: member.actor, id: params.id, amount: body.amount });
        return dashboardPaymentView(payment, member.membership);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/payments/:id/cancel`,
        tag,
        summary: 'Void an authorized payment: nothing is charged',
        params: objectParams,
        permission: 'payments.capture',
      },
      async ({ params, scope, member }) => {
        const payment = await cancelPayment(deps, { scope, actor: member.actor, id: params.id });
        return dashboardPaymentView(payment, member.membership);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/payments/:id/refunds`,
        tag,
        summary: 'Refund a succeeded payment, fully or in part',
        params: objectParams,
        body: refundBody,
        permission: 'payments.refund',
      },
      async ({ params, body, scope, member }) => {
        const refund = await createRefund(deps, {
          scope,
          actor: member.actor,
          paymentId: params.id,
          amount: body.amount,
          reason: body.reason,
          createdBy: member.actor.id,
        });
        return refundView(refund);
      },
    ),

    modeEndpoint(
      {
        method: 'POST',
        url: `${base}/payments/:id/send_receipt`,
        tag,
        summary: "Resend a succeeded payment's receipt to the shopper's email",
        params: objectParams,
        permission: 'receipts.resend',
      },
      async ({ params, scope, member }) => receiptView(await sendReceipt(deps, { scope, actor: member.actor, id: params.id })),
    ),
  ];
}
