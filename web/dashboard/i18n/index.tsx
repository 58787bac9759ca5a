import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { useCallback, type ReactNode } from 'react';
import { IntlProvider, useIntl } from 'react-intl';
import en from './en.json';

/**
 * The dashboard's words, through FormatJS (react-intl) like the checkout page's: ICU messages in
 * en.json, precompiled at build time. English only for now; another language is another JSON file
 * with the same keys and a locale passed to the provider, not a refactor.
 */
export type DashboardMessageKey = keyof typeof en;
export type DashboardTranslate = (key: DashboardMessageKey, values?: Record<string, string | number>) => string;

const messages = en as unknown as Record<string, MessageFormatElement[]>;

export function DashboardIntl({ children }: { children: ReactNode }) {
  return (
    <IntlProvider locale="en" defaultLocale="en" messages={messages}>
      {children}
    </IntlProvider>
  );
}

/** `t('nav.payments')`: a typed key (a key not in en.json is a compile error). */
export function useT(): DashboardTranslate {
  const intl = useIntl();
  return useCallback((key, values) => intl.formatMessage({ id: key }, values), [intl]);
}
