import { useEffect, useRef, useState } from 'react';
import type { PublicSession, SavedCard } from './api';
import type { MessageKey, Translate } from './i18n';
import type { AttemptOutcome } from './payment-attempt';
import { savedCardCvcField, type SavedCardCvcField } from './saved-card-cvc';
import './saved-cards.css';

/**
 * The customer's saved cards, offered for one tap: pick one (the newest is picked) and pay, or use
 * another card. Where the session or the processor asks for it, the chosen card's CVC is typed
 * again (our input in test mode, Braintree's CVV-only frame otherwise). Its own chunk, loaded only
 * when the session has a customer with saved cards, so the first load of every other checkout
 * stays as small as before.
 */
export default function SavedCards(props: {
  session: PublicSession;
  cards: SavedCard[];
  payLabel: string;
  processing: boolean;
  t: Translate;
  onPay: (paymentMethodId: string, cvcNonce?: string) => Promise<AttemptOutcome | undefined> | undefined;
  onUseAnother: () => void;
}) {
  const { cards, t, session } = props;
  const [chosen, setChosen] = useState(cards[0]!.id);
  const askCvc = session.saved_card_cvc_required;
  const [cvcError, setCvcError] = useState<string | null>(null);
  const [tokenizing, setTokenizing] = useState(false);
  const cvcInput = useRef<HTMLInputElement>(null);
  const cvcFrame = useRef<HTMLDivElement>(null);
  const field = useRef<SavedCardCvcField | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once; the CVC field stays while the list is shown.
  useEffect(() => {
    if (!askCvc) return;
    const cvc = savedCardCvcField(session);
    field.current = cvc;
    if (cvc.frame && cvcFrame.current) void cvc.mount(cvcFrame.current, t('form.cvc'));
    return () => cvc.teardown();
  }, []);
  const brand = (name: string | null) => {
    const key = `brand.${name}`;
    return name && t.has(key) ? t(key) : t('brand.unknown');
  };
  const digits = cards.find((card) => card.id === chosen)?.brand === 'amex' ? 4 : 3;
  const cvcRefused = (key: MessageKey) => setCvcError(t(key, { digits }));
  // Once the list is enabled again (a disabled field takes no focus), the refused CVC gets it.
  useEffect(() => {
    if (cvcError) cvcInput.current?.focus();
  }, [cvcError]);
  const pay = async () => {
    if (tokenizing || props.processing) return;
    setCvcError(null);
    let cvcNonce: string | undefined;
    if (askCvc && field.current) {
      setTokenizing(true);
      const cvc = await field.current.tokenize(chosen, cvcInput.current?.value.trim() ?? '');
      setTokenizing(false);
      if ('key' in cvc) return cvcRefused(cvc.key);
      cvcNonce = cvc.nonce;
    }
    const outcome = await props.onPay(chosen, cvcNonce);
    if (outcome && outcome.kind === 'retry' && outcome.field === 'cvc') cvcRefused(outcome.key);
  };
  return (
    <fieldset className="saved-cards" data-testid="saved-cards" disabled={props.processing || tokenizing}>
      <legend>{t('saved.heading')}</legend>
      {cards.map((card) => (
        <label key={card.id} className="saved-card">
          <input type="radio" name="saved-card" value={card.id} checked={chosen === card.id} onChange={() => setChosen(card.id)} />
          <span>
            {t('saved.card', {
              brand: brand(card.brand),
              last4: card.last4 ?? '',
              month: String(card.exp_month ?? '').padStart(2, '0'),
              year: String(card.exp_year ?? ''),
            })}
          </span>
        </label>
      ))}
      {askCvc && (
        <div className="field saved-card-cvc">
          <label className="field-label" htmlFor="saved-card-cvc">
            {t('form.cvc')}
          </label>
          <div className="field-box" dir="ltr">
            {session.processor.name === 'braintree' ? (
              <div id="saved-card-cvc" className="field-slot" ref={cvcFrame} />
            ) : (
              <input
                id="saved-card-cvc"
                ref={cvcInput}
                className="field-input"
                inputMode="numeric"
                autoComplete="cc-csc"
                maxLength={digits}
                aria-describedby="saved-card-cvc-hint saved-card-cvc-error"
                aria-invalid={cvcError ? true : undefined}
              />
            )}
          </div>
          <p className="field-hint" id="saved-card-cvc-hint">
            {digits === 4 ? t('form.cvcHintAmex') : t('form.cvcHint', { digits })}
          </p>
          <p className="field-error" id="saved-card-cvc-error" aria-live="polite">
            {cvcError ?? ''}
          </p>
        </div>
      )}
      <button type="button" className="pay-button" aria-busy={props.processing || tokenizing} onClick={() => void pay()}>
        {props.payLabel}
      </button>
      <button type="button" className="link-button" onClick={props.onUseAnother}>
        {t('saved.useAnother')}
      </button>
    </fieldset>
  );
}
