import { useEffect, useRef, useState } from 'react';
import type { MessageKey, Translate } from '../i18n';
import { BrandIcon } from '../BrandIcon';
import { useLatest } from '../use-latest';
import { cardFieldNames, type CardFieldName, type CardFieldSlot, type CardFormEngine, type CardFormState, emptyCardFormState } from './engine';

export const labels: Record<CardFieldName, MessageKey> = {
  number: 'form.cardNumber',
  expiry: 'form.expiry',
  cvc: 'form.cvc',
  postalCode: 'form.postalCode',
};

/** Digits are the same in every locale (cards print Latin digits); the expiry's letters are not. */
const placeholders: Record<CardFieldName, (t: Translate) => string> = {
  number: () => '1234 1234 1234 1234',
  expiry: (t) => t('form.expiryPlaceholder'),
  cvc: () => '123',
  postalCode: () => '',
};

/**
 * Which message a field shows now, if any: only after the shopper has left it or tried to pay. A
 * field Pay found wrong (`flagged`) keeps its message, focused or not, until it is correct.
 */
export function fieldError(field: CardFieldName, state: CardFormState, touched: boolean, submitted: boolean, flagged?: boolean): MessageKey | null {
  const f = state.fields[field];
  if (f.isValid) return null;
  if (flagged) return `field.${field}.${f.isEmpty ? 'empty' : 'invalid'}` as MessageKey;
  const typingStillFine = f.isFocused && f.isPotentiallyValid;
  if (typingStillFine) return null;
  if (!touched && !submitted && f.isPotentiallyValid) return null;
  if (f.isEmpty) return touched || submitted ? (`field.${field}.empty` as MessageKey) : null;
  return `field.${field}.invalid` as MessageKey;
}

interface CardFieldsProps {
  /** null until the engine's code has arrived (the server renders the form without one). */
  engine: CardFormEngine | null;
  t: Translate;
  /** Set after a pay attempt, so every field shows what is missing. */
  submitted: boolean;
  /** The fields Pay found wrong and the shopper has not corrected yet (fields-to-fix.ts). */
  flagged?: readonly string[];
  /** The billing address the page collects gives the postal code (engine.setPostalCode): its field is hidden. */
  postalGiven?: boolean;
  onReady?: () => void;
  /** The engine could not start (Hosted Fields frames blocked, gateway down). */
  onFailed?: (error: unknown) => void;
}

/**
 * The card form's look: labels, slots for the engine's inputs, brand icon, hints and inline
 * errors tied to each input with `aria-describedby`. The same for every engine.
 */
export function CardFields({ engine, t, submitted, flagged, postalGiven, onReady, onFailed }: CardFieldsProps) {
  const containers = useRef<Partial<Record<CardFieldName, HTMLDivElement | null>>>({});
  const [state, setState] = useState<CardFormState>(() => engine?.getState() ?? emptyCardFormState());
  const [touched, setTouched] = useState<Set<CardFieldName>>(new Set());

  // The engine mounts once per instance, labelled in the page's language of that moment.
  const latest = useLatest({ t, onReady, onFailed });
  useEffect(() => {
    if (!engine) return;
    const { t } = latest.current;
    setState({ ...engine.getState() });
    const slots = Object.fromEntries(
      cardFieldNames.map((field): [CardFieldName, CardFieldSlot] => [
        field,
        {
          container: containers.current[field]!,
          inputId: `card-${field}`,
          describedBy: field === 'cvc' ? 'card-cvc-hint card-cvc-error' : `card-${field}-error`,
          placeholder: placeholders[field](t),
          label: t(labels[field]),
        },
      ]),
    ) as Record<CardFieldName, CardFieldSlot>;
    const unsubscribe = engine.subscribe((next, event) => {
      setState({ ...next });
      if (event.type === 'blur') setTouched((previous) => new Set(previous).add(event.field));
    });
    void engine.mount(slots).then(
      () => latest.current.onReady?.(),
      (error: unknown) => latest.current.onFailed?.(error),
    );
    return () => {
      unsubscribe();
      engine.teardown();
    };
  }, [engine, latest]);

  const errors = Object.fromEntries(
    cardFieldNames.map((name) => [name, fieldError(name, state, touched.has(name), submitted, flagged?.includes(name))]),
  ) as Record<CardFieldName, MessageKey | null>;
  // `aria-invalid` follows what the page shows: a wrong value, or a field Pay found missing (a
  // field left empty on blur is only missing, not invalid).
  const ariaInvalid = cardFieldNames.map((name) => Boolean(errors[name]) && (!state.fields[name].isEmpty || Boolean(flagged?.includes(name))));
  const ariaKey = ariaInvalid.join();
  // biome-ignore lint/correctness/useExhaustiveDependencies: ariaKey is ariaInvalid's value: sent again only when it changes.
  useEffect(() => {
    for (const [i, name] of cardFieldNames.entries()) engine?.setAriaInvalid(name, ariaInvalid[i]!);
  }, [engine, ariaKey]);

  const field = (name: CardFieldName, extra?: React.ReactNode, hint?: string) => {
    const error = errors[name];
    return (
      <div
        className={`field field-${name}${error ? ' has-error' : ''}${state.fields[name].isFocused ? ' is-focused' : ''}`}
        hidden={name === 'postalCode' && postalGiven}
      >
        <label htmlFor={`card-${name}`}>{t(labels[name])}</label>
        {/* Card digits and postal codes read left to right on every page, as banks print them. */}
        <div className="field-box" dir="ltr">
          {/* The engine's inputs or frames go here. With Braintree they arrive before React hydrates
              (main.tsx starts Hosted Fields in the server's markup, found by data-card-slot): the
              empty text child tells React to keep what is inside instead of hydrating it. */}
          <div
            className="field-slot"
            data-card-slot={name}
            data-placeholder={placeholders[name](t) || undefined}
            ref={(element) => {
              containers.current[name] = element;
            }}
          >
            {''}
          </div>
          {extra}
        </div>
        {hint && (
          <p className="field-hint" id={`card-${name}-hint`}>
            {hint}
          </p>
        )}
        <p className="field-error" id={`card-${name}-error`} aria-live="polite">
          {error ? t(error, { digits: state.cvcSize }) : ''}
        </p>
      </div>
    );
  };

  return (
    <fieldset className="card-fields">
      <legend>{t('form.cardHeading')}</legend>
      {field('number', <BrandIcon brand={state.brand} t={t} />)}
      <div className="field-row">
        {field('expiry')}
        {field('cvc', undefined, state.cvcSize === 4 ? t('form.cvcHintAmex') : t('form.cvcHint', { digits: state.cvcSize }))}
      </div>
      {field('postalCode')}
    </fieldset>
  );
}
