import type { SubscriptionTerms } from '../api';
import { formatMoney } from '../format';
import type { Translate } from '../i18n';

/**
 * What a subscription session's page says under the total: the free days of a trial, if any, and what
 * is charged next and how often ("Then $20.00 every month", "… every 3 months after the trial"), the
 * amount formatted as the page formats money and the interval with the locale's plural forms.
 */
export function subscriptionWording(terms: SubscriptionTerms, currency: string, t: Translate): { trial: string | null; next: string } {
  const period = t('subscription.period', { interval: terms.interval, count: terms.interval_count });
  const amount = formatMoney(terms.amount, currency, t.lang);
  const days = terms.trial_period_days;
  return {
    trial: days ? t('subscription.trial', { days }) : null,
    next: t(days ? 'subscription.thenAfterTrial' : 'subscription.then', { amount, period }),
  };
}
