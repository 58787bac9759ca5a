import { DEFAULT_LOCALE, matchLocale } from '../../shared/locale';

/** The fixed words of a receipt email; `{name}` placeholders are filled by compose-receipt.ts. */
export interface ReceiptMessages {
  subject: string;
  thanks: string;
  receiptNumber: string;
  date: string;
  items: string;
  subtotal: string;
  discount: string;
  shipping: string;
  tax: string;
  total: string;
  refunded: string;
  paidWith: string;
  paidWithMethod: string;
  contact: string;
  testMode: string;
}

const en: ReceiptMessages = {
  subject: 'Your receipt from {merchant}',
  thanks: 'Thank you for your payment to {merchant}.',
  receiptNumber: 'Receipt number',
  date: 'Date',
  items: 'Items',
  subtotal: 'Subtotal',
  discount: 'Discount',
  shipping: 'Shipping',
  tax: 'Tax',
  total: 'Total paid',
  refunded: 'Refunded',
  paidWith: 'Paid with {brand} ending in {last4}',
  paidWithMethod: 'Paid with {method}',
  contact: 'Questions about this order? Contact {merchant} at {email}.',
  testMode: 'Test mode: no real money moved.',
};

/**
 * The receipt's words per locale. A locale of the checkout page that has no entry here gets the
 * English receipt, English words and English number formats alike (docs/receipts.md).
 */
const catalogue: Partial<Record<string, ReceiptMessages>> = {
  en,
  de: {
    subject: 'Ihre Quittung von {merchant}',
    thanks: 'Vielen Dank für Ihre Zahlung an {merchant}.',
    receiptNumber: 'Belegnummer',
    date: 'Datum',
    items: 'Artikel',
    subtotal: 'Zwischensumme',
    discount: 'Rabatt',
    shipping: 'Versand',
    tax: 'Steuer',
    total: 'Bezahlt',
    refunded: 'Erstattet',
    paidWith: 'Bezahlt mit {brand} mit Endziffern {last4}',
    paidWithMethod: 'Bezahlt mit {method}',
    contact: 'Fragen zu dieser Bestellung? Wenden Sie sich an {merchant} unter {email}.',
    testMode: 'Testmodus: Es wurde kein echtes Geld bewegt.',
  },
  fr: {
    subject: 'Votre reçu de {merchant}',
    thanks: 'Merci pour votre paiement à {merchant}.',
    receiptNumber: 'Numéro de reçu',
    date: 'Date',
    items: 'Articles',
    subtotal: 'Sous-total',
    discount: 'Remise',
    shipping: 'Livraison',
    tax: 'Taxes',
    total: 'Total payé',
    refunded: 'Remboursé',
    paidWith: 'Payé avec {brand} se terminant par {last4}',
    paidWithMethod: 'Payé avec {method}',
    contact: 'Une question sur cette commande ? Contactez {merchant} à {email}.',
    testMode: 'Mode test : aucun argent réel n’a été débité.',
  },
  es: {
    subject: 'Tu recibo de {merchant}',
    thanks: 'Gracias por tu pago a {merchant}.',
    receiptNumber: 'Número de recibo',
    date: 'Fecha',
    items: 'Artículos',
    subtotal: 'Subtotal',
    discount: 'Descuento',
    shipping: 'Envío',
    tax: 'Impuestos',
    total: 'Total pagado',
    refunded: 'Reembolsado',
    paidWith: 'Pagado con {brand} terminada en {last4}',
    paidWithMethod: 'Pagado con {method}',
    contact: '¿Preguntas sobre este pedido? Escribe a {merchant} en {email}.',
    testMode: 'Modo de prueba: no se movió dinero real.',
  },
  it: {
    subject: 'La tua ricevuta da {merchant}',
    thanks: 'Grazie per il tuo pagamento a {merchant}.',
    receiptNumber: 'Numero ricevuta',
    date: 'Data',
    items: 'Articoli',
    subtotal: 'Subtotale',
    discount: 'Sconto',
    shipping: 'Spedizione',
    tax: 'Imposte',
    total: 'Totale pagato',
    refunded: 'Rimborsato',
    paidWith: 'Pagato con {brand} che termina con {last4}',
    paidWithMethod: 'Pagato con {method}',
    contact: 'Domande su questo ordine? Contatta {merchant} all’indirizzo {email}.',
    testMode: 'Modalità di test: nessun denaro reale è stato addebitato.',
  },
  nl: {
    subject: 'Je bon van {merchant}',
    thanks: 'Bedankt voor je betaling aan {merchant}.',
    receiptNumber: 'Bonnummer',
    date: 'Datum',
    items: 'Artikelen',
    subtotal: 'Subtotaal',
    discount: 'Korting',
    shipping: 'Verzending',
    tax: 'Belasting',
    total: 'Totaal betaald',
    refunded: 'Terugbetaald',
    paidWith: 'Betaald met {brand} eindigend op {last4}',
    paidWithMethod: 'Betaald met {method}',
    contact: 'Vragen over deze bestelling? Neem contact op met {merchant} via {email}.',
    testMode: 'Testmodus: er is geen echt geld verplaatst.',
  },
  'pt-BR': {
    subject: 'Seu recibo de {merchant}',
    thanks: 'Obrigado pelo seu pagamento a {merchant}.',
    receiptNumber: 'Número do recibo',
    date: 'Data',
    items: 'Itens',
    subtotal: 'Subtotal',
    discount: 'Desconto',
    shipping: 'Frete',
    tax: 'Impostos',
    total: 'Total pago',
    refunded: 'Reembolsado',
    paidWith: 'Pago com {brand} final {last4}',
    paidWithMethod: 'Pago com {method}',
    contact: 'Dúvidas sobre este pedido? Fale com {merchant} em {email}.',
    testMode: 'Modo de teste: nenhum dinheiro real foi movimentado.',
  },
  'pt-PT': {
    subject: 'O seu recibo de {merchant}',
    thanks: 'Obrigado pelo seu pagamento a {merchant}.',
    receiptNumber: 'Número do recibo',
    date: 'Data',
    items: 'Artigos',
    subtotal: 'Subtotal',
    discount: 'Desconto',
    shipping: 'Envio',
    tax: 'Impostos',
    total: 'Total pago',
    refunded: 'Reembolsado',
    paidWith: 'Pago com {brand} terminado em {last4}',
    paidWithMethod: 'Pago com {method}',
    contact: 'Dúvidas sobre esta encomenda? Contacte {merchant} em {email}.',
    testMode: 'Modo de teste: não foi movimentado dinheiro real.',
  },
  sv: {
    subject: 'Ditt kvitto från {merchant}',
    thanks: 'Tack för din betalning till {merchant}.',
    receiptNumber: 'Kvittonummer',
    date: 'Datum',
    items: 'Artiklar',
    subtotal: 'Delsumma',
    discount: 'Rabatt',
    shipping: 'Frakt',
    tax: 'Moms',
    total: 'Totalt betalt',
    refunded: 'Återbetalt',
    paidWith: 'Betalt med {brand} som slutar på {last4}',
    paidWithMethod: 'Betalt med {method}',
    contact: 'Frågor om beställningen? Kontakta {merchant} på {email}.',
    testMode: 'Testläge: inga riktiga pengar har flyttats.',
  },
  pl: {
    subject: 'Twoje potwierdzenie od {merchant}',
    thanks: 'Dziękujemy za płatność na rzecz {merchant}.',
    receiptNumber: 'Numer potwierdzenia',
    date: 'Data',
    items: 'Pozycje',
    subtotal: 'Suma częściowa',
    discount: 'Rabat',
    shipping: 'Dostawa',
    tax: 'Podatek',
    total: 'Zapłacono łącznie',
    refunded: 'Zwrócono',
    paidWith: 'Zapłacono kartą {brand} kończącą się na {last4}',
    paidWithMethod: 'Zapłacono: {method}',
    contact: 'Pytania dotyczące zamówienia? Napisz do {merchant}: {email}.',
    testMode: 'Tryb testowy: nie przeniesiono prawdziwych pieniędzy.',
  },
  ja: {
    subject: '{merchant} からの領収書',
    thanks: '{merchant} へのお支払いありがとうございます。',
    receiptNumber: '領収書番号',
    date: '日付',
    items: '商品',
    subtotal: '小計',
    discount: '割引',
    shipping: '配送料',
    tax: '税',
    total: 'お支払い合計',
    refunded: '返金済み',
    paidWith: '{brand}（末尾 {last4}）でお支払い',
    paidWithMethod: '{method} でお支払い',
    contact: 'ご注文についてのお問い合わせは {merchant}（{email}）までご連絡ください。',
    testMode: 'テストモード：実際のお金は動いていません。',
  },
};

/** The locales whose receipts are in their own words; every other locale falls back to English. */
export const RECEIPT_LOCALES = Object.keys(catalogue);

/** The receipt's words for a locale tag (`de-AT` → German), English when there is no catalogue. */
export function receiptMessages(locale: string): { locale: string; messages: ReceiptMessages } {
  const matched = matchLocale(locale) ?? DEFAULT_LOCALE;
  const messages = catalogue[matched];
  return messages ? { locale: matched, messages } : { locale: DEFAULT_LOCALE, messages: en };
}
