import { useState } from 'react';
import type { SavedCard } from './api';
import type { Translate } from './i18n';
import './saved-cards.css';

/**
 * The customer's saved cards, offered for one tap: pick one (the newest is picked) and pay, or use
 * another card. Its own chunk, loaded only when the session has a customer with saved cards, so
 * the first load of every other checkout stays as small as before.
 */
export default function SavedCards(props: {
  cards: SavedCard[];
  payLabel: string;
  processing: boolean;
  t: Translate;
  onPay: (paymentMethodId: string) => void;
  onUseAnother: () => void;
}) {
  const { cards, t } = props;
  const [chosen, setChosen] = useState(cards[0]!.id);
  const brand = (name: string | null) => {
    const key = `brand.${name}`;
    return name && t.has(key) ? t(key) : t('brand.unknown');
  };
  return (
    <fieldset className="saved-cards" data-testid="saved-cards" disabled={props.processing}>
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
      <button type="button" className="pay-button" aria-busy={props.processing} onClick={() => props.onPay(chosen)}>
        {props.payLabel}
      </button>
      <button type="button" className="link-button" onClick={props.onUseAnother}>
        {t('saved.useAnother')}
      </button>
    </fieldset>
  );
}
