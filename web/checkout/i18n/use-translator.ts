import { useEffect, useMemo, useState } from 'react';
import { browserLocale, catalogueLocale, loadedMessages, loadMessages, someLoadedMessages, translator, type Messages, type Translate } from './index';

/**
 * The translate function for a locale (the session's, or the browser's before a session is known).
 * `formatLocale`: the shopper's full tag for amounts and numbers (page-data.ts). `ready` is false
 * while that locale's catalogue is on its way; `t` is then the last catalogue in use (English, or
 * the one the server inlined), good for a loading line only.
 */
export function useTranslator(locale: string | null | undefined, formatLocale?: string | null): { t: Translate; ready: boolean } {
  const wanted = catalogueLocale(locale ?? browserLocale());
  const here = loadedMessages(wanted);
  const [last, setLast] = useState<Messages>(() => here ?? someLoadedMessages());
  useEffect(() => {
    if (here) return setLast(here);
    let live = true;
    void loadMessages(wanted).then((next) => {
      if (live) setLast(next);
    });
    return () => {
      live = false;
    };
  }, [wanted, here]);
  const messages = here ?? last;
  const t = useMemo(() => translator(messages, formatLocale), [messages, formatLocale]);
  return { t, ready: Boolean(here) };
}
