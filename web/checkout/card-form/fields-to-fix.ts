import { useEffect, useState } from 'react';
import type { MessageKey, Translate } from '../i18n';
import { cardFieldNames, type CardFieldName, type CardFormEngine, type CardFormState } from './engine';

/** A field of the payment form Pay can find wrong: the email or one of the card's. */
export type FieldToFix = CardFieldName | 'email';

export const fieldLabels: Record<FieldToFix, MessageKey> = {
  email: 'form.email',
  number: 'form.cardNumber',
  expiry: 'form.expiry',
  cvc: 'form.cvc',
  postalCode: 'form.postalCode',
};

/** Every field wrong now, in the form's order (email first, then the card's). */
export function wrongFields(emailValid: boolean, card: CardFormState): FieldToFix[] {
  return [...(emailValid ? [] : (['email'] as const)), ...cardFieldNames.filter((field) => !card.fields[field].isValid)];
}

/** Of the fields Pay found wrong, those still wrong. */
export function stillWrong(flagged: readonly FieldToFix[], emailValid: boolean, card: CardFormState): FieldToFix[] {
  return flagged.filter((field) => (field === 'email' ? !emailValid : !card.fields[field].isValid));
}

/** The banner that names the fields to fix: "Please check: Card number and Security code." */
export function fixFieldsMessage(fields: readonly FieldToFix[], t: Translate): string {
  const names = new Intl.ListFormat(t.lang, { type: 'conjunction' }).format(fields.map((field) => t(fieldLabels[field])));
  return t('form.fixFields', { fields: names });
}

/**
 * The fields Pay found wrong and the shopper has not corrected yet. Each keeps its message, focused
 * or not, until it is correct; a corrected field leaves the list for good (wrong again later, it
 * shows its message on blur, as any field does). The banner naming them goes when the list is empty.
 */
export function useFieldsToFix(engine: CardFormEngine | null, emailValid: boolean) {
  const [flagged, setFlagged] = useState<readonly FieldToFix[]>([]);
  const [card, setCard] = useState<CardFormState | null>(() => engine?.getState() ?? null);
  useEffect(() => {
    if (!engine) return;
    setCard({ ...engine.getState() });
    return engine.subscribe((next) => setCard({ ...next }));
  }, [engine]);
  const toFix = card ? stillWrong(flagged, emailValid, card) : flagged.filter((field) => field !== 'email' || !emailValid);
  const corrected = toFix.length !== flagged.length;
  useEffect(() => {
    if (corrected) setFlagged(toFix);
  }, [corrected, toFix]);
  return { fieldsToFix: toFix, flag: setFlagged };
}
