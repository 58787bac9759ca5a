import { useEffect, useState } from 'react';
import type { MessageKey, Translate } from '../i18n';
import { labels } from './CardFields';
import { cardFieldNames, type CardFieldName, type CardFormEngine, type CardFormState } from './engine';

/** A field of the payment form Pay can find wrong: the email or one of the card's. */
export type FieldToFix = CardFieldName | 'email';

const fieldLabels: Record<FieldToFix, MessageKey> = { email: 'form.email', ...labels };

/** Every field wrong now, in the form's order (email first, then the card's). */
export function wrongFields(emailValid: boolean, card: CardFormState): FieldToFix[] {
  return [...(emailValid ? [] : (['email'] as const)), ...cardFieldNames.filter((field) => !card.fields[field].isValid)];
}

/** The banner that names the fields to fix: "Please check: Card number and Security code." */
export function fixFieldsMessage(fields: readonly FieldToFix[], t: Translate): string {
  const names = new Intl.ListFormat(t.lang) /* "a, b and c" */
    .format(fields.map((field) => t(fieldLabels[field])));
  return t('form.fixFields', { fields: names });
}

/**
 * The fields Pay found wrong and the shopper has not corrected yet. Each keeps its message, focused
 * or not, until it is correct; a corrected field leaves the list for good (wrong again later, it
 * shows its message on blur, as any field does). The banner naming them goes when the list is empty.
 */
export function useFieldsToFix(engine: CardFormEngine | null, emailValid: boolean) {
  const [flagged, setFlagged] = useState<readonly FieldToFix[]>([]);
  useEffect(
    () =>
      engine?.subscribe((state) =>
        setFlagged((fields) => {
          const kept = fields.filter((field) => field === 'email' || !state.fields[field].isValid);
          return kept.length === fields.length ? fields : kept;
        }),
      ),
    [engine],
  );
  return { fieldsToFix: emailValid ? flagged.filter((field) => field !== 'email') : flagged, flag: setFlagged };
}
