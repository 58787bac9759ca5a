import type { SubscriptionTerms } from '../api';
import type { Translate } from '../i18n';

/**
 * What a subscription session's page says under the total: what is charged next (`amount`, formatted
 * as the page formats money) and how often, "Then $20.00 every month"; after the trial's free days if
 * there are any, "14 days free · Then $20.00 every month after the trial". The interval and the days
 * take the locale's plural forms.
 */
export const subscriptionWording = ({ trial_period_days: days, interval, interval_count: count }: SubscriptionTerms, amount: string, t: Translate) =>
  t(days ? 'subscription.thenAfterTrial' : 'subscription.then', { days: days ?? 0, amount, period: t('subscription.period', { interval, count }) });
