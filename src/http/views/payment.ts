import { maskEmail } from '../../domain/sessions/customer-email';
import type { Payment } from '../../domain/payments/entities';
import { paymentStatusBadge } from '../../domain/payments/status-badge';
import { paymentSnapshot } from '../../domain/shared/event-payloads';
import { can } from '../../domain/team/permissions';
import type { Membership } from '../../domain/team/entities';

/** The payment as the merchant API shows it: the same object its events carry. */
export const paymentView = paymentSnapshot;

/** Whether this member sees customer emails in clear (viewers do not). */
export const seesEmails = (membership: Membership) => can(membership.role, 'customers.read_email');

/** `customer_details` with its email masked for members who do not see emails. */
export function dashboardCustomerDetails<D extends { email: string | null } | null>(details: D, membership: Membership): D {
  return details && !seesEmails(membership) ? { ...details, email: maskEmail(details.email) } : details;
}

/**
 * The payment as the dashboard shows it: emails masked for members who do not see them, and the
 * badge (`refunded`, `partially_refunded` or the status) beside the lifecycle status.
 */
export function dashboardPaymentView(payment: Payment, membership: Membership) {
  const view = paymentView(payment);
  return {
    ...view,
    status_badge: paymentStatusBadge(payment),
    customer_email: seesEmails(membership) ? view.customer_email : maskEmail(view.customer_email),
    customer_details: dashboardCustomerDetails(view.customer_details, membership),
    payment_method: view.payment_method && {
      ...view.payment_method,
      payer_email: seesEmails(membership) ? view.payment_method.payer_email : maskEmail(view.payment_method.payer_email),
    },
  };
}
