/**
 * Why each script of the checkout page is there: the written justification PCI DSS 4.0 requirement
 * 6.4.3 asks for, kept by the project beside the code. The scripts themselves are not listed here:
 * the inventory comes from the build (built-assets.ts) and the page's CSP; this file only explains
 * them, keyed by purpose. A chunk or a CSP origin that no purpose here matches makes the inventory
 * test fail, so a new script cannot ship without a reason.
 */

/** The page set-ups a script depends on; a script is loaded when all of its conditions hold. */
/**
 * `saved_cards`: the session's customer has saved cards to offer.
 * `promotion_codes`, `shipping_options`, `address_collection`: the session allows promotion codes,
 * offers shipping choices, or asks for a shipping or billing address (docs/pricing.md).
 * `adjustable_quantity`, `custom_fields`: a line item's quantity is the shopper's to change, or the
 * session asks custom fields before paying.
 * `paid`: the session is paid (its receipt), or a payment under way is about to be.
 * `paypal_or_venmo`: the session offers PayPal or Venmo (their buttons share a chunk).
 * `local_payment`: the session offers a local payment method (iDEAL, Bancontact…; their buttons share a chunk).
 * `us_bank_account`: the session offers an ACH bank debit (its form, loaded on demand).
 * `popup_window`: the page may open PayPal's or a bank's window (the session offers PayPal, Venmo or a
 * local payment method).
 * `test_window`: test mode shows a stand-in for a third party's window (the 3-D Secure test
 * challenge, the PayPal or Venmo test window, a bank's for a local payment method).
 * `merchant_page`: the merchant's own page that mounts an embedded session (`/js/embed.js` runs
 * there, never on the checkout page).
 * `catalogue_fetch`: the page fetches a catalogue itself. A server-rendered page never does (the
 * server inlines the shopper's catalogue); the chunks exist for a page rendered in the browser.
 */
export const pageConfigurations = [
  'always',
  'test_processor',
  'braintree',
  'card',
  'google_pay',
  'apple_pay',
  'paypal',
  'venmo',
  'paypal_or_venmo',
  'local_payment',
  'us_bank_account',
  'popup_window',
  'test_window',
  'three_d_secure',
  'sentry',
  'catalogue_fetch',
  'saved_cards',
  'promotion_codes',
  'shipping_options',
  'address_collection',
  'adjustable_quantity',
  'custom_fields',
  'paid',
  'merchant_page',
] as const;
export type PageConfiguration = (typeof pageConfigurations)[number];

export interface FirstPartyPurpose {
  /** Stable across builds (chunk file names change with every build; purposes do not). */
  id: string;
  /** Matches the chunk's source in Vite's manifest (the module or the entry it was built from). */
  source: RegExp;
  loadedWhen: PageConfiguration[];
  justification: string;
}

export interface ThirdPartyPurpose {
  id: string;
  /** An exact origin from the page's script-src. */
  origin: string;
  /** The script's path on that origin. */
  path: string;
  loadedWhen: PageConfiguration[];
  justification: string;
  /** Why no SRI hash is pinned, for scripts whose vendor changes them in place. */
  integrityNote: string;
}

export const firstPartyPurposes: readonly FirstPartyPurpose[] = [
  {
    id: 'checkout-entry',
    source: /^checkout\/main\.tsx$/,
    loadedWhen: ['always'],
    justification:
      'The checkout page’s first script, kept small: reads the data the server inlined, starts Braintree’s card fields when the session pays through Braintree, and loads the rest of the page. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'checkout-first',
    source: /^_checkout-first-[\w-]+\.js$/,
    loadedWhen: ['always'],
    justification:
      'What the first script needs with it: the Trusted Types policies, reading the inlined page data, which payment methods the session offers, and how the page reads a Braintree component’s exports. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'checkout-app',
    source: /^(?:_hydrate-[\w-]+\.js|checkout\/hydrate\.tsx)$/,
    loadedWhen: ['always'],
    justification:
      'The checkout page itself: hydrates the order, the email field, the payment methods and the pay button the server rendered, and talks only to this server. Loaded by the first script at once, or on Braintree card pages once the card fields take typing. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'shared-runtime',
    source: /^_rolldown-runtime-/,
    loadedWhen: ['always'],
    justification: 'The bundler’s module runtime that the page and its lazily loaded parts share. Built by Tillpoint.',
  },
  {
    id: 'shared-libraries',
    source: /^_react-[\w-]+\.js$/,
    loadedWhen: ['always'],
    justification:
      'React and the formatting code the page shares with its error-reporting part and the dashboard (money and dates with Intl). Built by Tillpoint from pinned npm packages.',
  },
  {
    id: 'locale-catalogue',
    source: /^checkout\/i18n\/locales\/[A-Za-z-]+\.json$/,
    loadedWhen: ['catalogue_fetch'],
    justification:
      'The shopper’s message catalogue: the page’s words in one language (one chunk per locale; only the negotiated one loads, and a server-rendered page inlines it instead). Written by Tillpoint (docs/localization.md); data only.',
  },
  {
    id: 'locale-catalogue-table',
    source: /^checkout\/i18n\/locale-chunks\.ts$/,
    loadedWhen: ['catalogue_fetch'],
    justification:
      'Where each locale’s catalogue chunk is: fetched only by a page that loads a catalogue itself, so no first load carries the table. Built by Tillpoint.',
  },
  {
    id: 'pseudo-locale',
    source: /^checkout\/i18n\/pseudo-locale\.ts$/,
    loadedWhen: ['catalogue_fetch'],
    justification:
      'The accented, longer pseudo-locale (en-XA) that shows clipped text in layout checks; loads only when a session asks for en-XA. Generated by Tillpoint from the English catalogue.',
  },
  {
    id: 'saved-cards',
    source: /^checkout\/SavedCards\.tsx$|^_?SavedCards-[\w-]+\.js$/,
    loadedWhen: ['saved_cards'],
    justification:
      'The returning shopper’s saved cards (brand, last 4 digits, expiry from this server; never a card number), offered for one tap with “use another card”. Loaded only when the session’s customer has saved cards. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'promotion-code',
    source: /^checkout\/shop\/PromotionCode\.tsx$/,
    loadedWhen: ['promotion_codes'],
    justification:
      'The promotion code field: applies or removes a code through this server, which prices the session again. Loaded only when the session allows promotion codes. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'shipping-choice',
    source: /^checkout\/shop\/ShippingChoice\.tsx$/,
    loadedWhen: ['shipping_options'],
    justification:
      'The shipping choice: the session’s shipping options as radio buttons; the server prices the chosen one. Loaded only when the session offers shipping options. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'address-form',
    source: /^checkout\/shop\/AddressForm\.tsx$/,
    loadedWhen: ['address_collection'],
    justification:
      'The address form laid out as the shopper’s country writes addresses (format fetched from this server), with the browser’s autofill names. Loaded only when the session asks for an address. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'quantity-stepper',
    source: /^checkout\/shop\/QuantityStepper\.tsx$/,
    loadedWhen: ['adjustable_quantity'],
    justification:
      'The quantity stepper of an adjustable line item (− and + within the merchant’s bounds): sends the quantity to this server, which prices the session again; the page shows the server’s figures. Loaded only when a line’s quantity is adjustable. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'custom-fields',
    source: /^checkout\/shop\/CustomFields\.tsx$/,
    loadedWhen: ['custom_fields'],
    justification:
      'The merchant’s questions (text, digits or a choice) in the payment form, checked on the page and sent with the payment to this server, which checks them again. Loaded only when the session asks custom fields. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'receipt',
    source: /^checkout\/Paid\.tsx$/,
    loadedWhen: ['paid'],
    justification:
      'The receipt of a paid session (what was paid, with which card or wallet, and the way on to the shop), or the card saved by a setup session or a trial. Loaded only once the session is paid or a payment is being confirmed; the page that takes the payment does not carry it. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'shop-options-client',
    source: /^_?shop-api-[\w-]+\.js$/,
    loadedWhen: ['promotion_codes'],
    justification:
      'The calls the shop options make to this server (promotion code, shipping choice, addresses, quantities), shared by their chunks. Loaded with any of them. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'saved-cards-styles',
    source: /(?:^|\/)SavedCards-[\w-]+\.css$/,
    loadedWhen: ['saved_cards'],
    justification: 'The saved cards’ stylesheet, loaded with them. Built by Tillpoint.',
  },
  {
    id: 'promotion-code-styles',
    source: /(?:^|\/)promotion-code-[\w-]+\.css$/,
    loadedWhen: ['promotion_codes'],
    justification: 'The promotion code field’s stylesheet, loaded with it. Built by Tillpoint.',
  },
  {
    id: 'shipping-choice-styles',
    source: /(?:^|\/)shipping-choice-[\w-]+\.css$/,
    loadedWhen: ['shipping_options'],
    justification: 'The shipping choice’s stylesheet, loaded with it. Built by Tillpoint.',
  },
  {
    id: 'address-form-styles',
    source: /(?:^|\/)address-form-[\w-]+\.css$/,
    loadedWhen: ['address_collection'],
    justification: 'The address form’s stylesheet, loaded with it. Built by Tillpoint.',
  },
  {
    id: 'quantity-stepper-styles',
    source: /(?:^|\/)quantity-stepper-[\w-]+\.css$/,
    loadedWhen: ['adjustable_quantity'],
    justification: 'The quantity stepper’s stylesheet, loaded with it. Built by Tillpoint.',
  },
  {
    id: 'test-three-d-secure-challenge',
    source: /^checkout\/three-d-secure\/test-challenge\.ts$/,
    loadedWhen: ['test_processor', 'three_d_secure'],
    justification:
      'The test processor’s 3-D Secure check: asks this server to verify the card as Braintree’s sandbox would and, for a challenge card, shows a test challenge the shopper passes or fails (test mode only; no bank is asked). Loaded only when a payment is to be verified. Built by Tillpoint.',
  },
  {
    id: 'apple-pay-button',
    source: /^checkout\/apple-pay\/(?:ApplePayArea\.tsx|apple-pay\.ts)$/,
    loadedWhen: ['apple_pay'],
    justification:
      'The Apple Pay button: shown only where Apple Pay JS says the browser can pay, it opens Apple’s sheet with the order from the session and pays with the nonce it yields (Braintree’s, or the test processor’s test nonce). Loaded only when the session offers Apple Pay. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'paypal-venmo-buttons',
    source: /^checkout\/wallets\/(?:ApprovalWalletArea\.tsx|approval-wallets\.ts)$/,
    loadedWhen: ['paypal_or_venmo'],
    justification:
      'The PayPal and Venmo buttons: PayPal’s own button (through braintree-web paypal-checkout) or, in test mode, a test window standing in for the wallet’s; Venmo’s where braintree-web says the browser can switch to its app. Each pays with the nonce its approval yields. Loaded only when the session offers PayPal or Venmo. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'paypal-venmo-styles',
    source: /(?:^|\/)approval-wallets-[\w-]+\.css$/,
    loadedWhen: ['paypal_or_venmo'],
    justification: 'The PayPal and Venmo buttons’ stylesheet, loaded with them. Built by Tillpoint.',
  },
  {
    id: 'local-payment-buttons',
    source: /^checkout\/local-payment\/(?:Banks\.tsx|local-payment\.ts|pay-at-bank\.ts)$/,
    loadedWhen: ['local_payment'],
    justification:
      'The local payment methods’ buttons (iDEAL, Bancontact, Sofort, giropay, EPS, Przelewy24, MyBank, BLIK), each with its mark drawn by the page: a tap records the payment on this server and opens the bank’s window (Braintree’s, or the test window in test mode). Loaded only when the session offers a local payment method. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'local-payment-methods',
    source: /^_local-payment-methods-[\w-]+\.js$/,
    loadedWhen: ['local_payment'],
    justification:
      'The table of local payment methods (each one’s name, currencies and countries) and the banks iDEAL names, which the buttons read and the dashboard shares, so neither carries a copy. Loaded with the buttons. Data, written by Tillpoint (src/domain/payments/local-payment-methods.ts).',
  },
  {
    id: 'local-payment-styles',
    source: /(?:^|\/)local-payment-[\w-]+\.css$/,
    loadedWhen: ['local_payment'],
    justification: 'The local payment methods’ buttons’ styles, loaded with them. Written by Tillpoint.',
  },
  {
    id: 'bank-debit-form',
    source: /^checkout\/bank-debit\/(?:BankDebitArea\.tsx|bank-debit\.ts)$/,
    loadedWhen: ['us_bank_account'],
    justification:
      'The ACH bank debit form: the account holder’s name, routing and account numbers, account type and owner, and the mandate the shopper accepts; paying turns the account into a nonce (braintree-web’s us-bank-account, or this server’s test endpoint in test mode) and pays with it. Loaded only when the session offers a US bank account. Built by Tillpoint from web/checkout.',
  },
  {
    id: 'bank-debit-styles',
    source: /(?:^|\/)bank-debit-[\w-]+\.css$/,
    loadedWhen: ['us_bank_account'],
    justification: 'The ACH bank debit form’s styles, loaded with it. Written by Tillpoint.',
  },
  {
    id: 'test-window',
    source: /^checkout\/test-dialog\.ts$/,
    loadedWhen: ['test_processor', 'test_window'],
    justification:
      'Test mode’s stand-in for a third party’s window (the 3-D Secure test challenge, the PayPal and Venmo test windows): a dialog with the shopper’s choices. Loaded only with them. Built by Tillpoint.',
  },
  {
    id: 'test-window-styles',
    source: /(?:^|\/)test-dialog-[\w-]+\.css$/,
    loadedWhen: ['test_processor', 'test_window'],
    justification: 'The test window’s stylesheet, loaded with it. Built by Tillpoint.',
  },
  {
    id: 'test-processor-client',
    source: /^checkout\/test-processor-client\.ts$/,
    loadedWhen: ['test_processor'],
    justification:
      'The test processor’s side of the page: its Google Pay test gateway exchange and 3-D Secure policy, so a Braintree page does not carry them (test mode only). Preloaded with the test card form. Built by Tillpoint.',
  },
  {
    id: 'apple-pay-styles',
    source: /(?:^|\/)apple-pay-[\w-]+\.css$/,
    loadedWhen: ['apple_pay'],
    justification: 'The Apple Pay button’s stylesheet, loaded with it. Built by Tillpoint.',
  },
  {
    id: 'test-card-engine',
    source: /^checkout\/card-form\/builtin-engine\.ts$/,
    loadedWhen: ['test_processor', 'card'],
    justification:
      'The test processor’s card form: formats and checks the card number, expiry and CVC typed on this page and tokenizes them with this server (test mode only; no card data is stored). Preloaded by the server-rendered page when the session pays through the test processor. Built by Tillpoint.',
  },
  {
    id: 'braintree-early-card-fields',
    source: /^(?:_braintree-early-[\w-]+\.js|checkout\/braintree\/early-hosted-fields\.ts)$/,
    loadedWhen: ['braintree', 'card'],
    justification:
      'Starts Braintree Hosted Fields in the server-rendered card form before the rest of the page loads, so the shopper can type sooner; the page’s card engine adopts them. Card data stays in Braintree’s iframes. Built by Tillpoint.',
  },
  {
    id: 'braintree-loader',
    source: /^checkout\/braintree\/braintree-components\.ts$/,
    loadedWhen: ['braintree'],
    justification: 'Loads the braintree-web components a Braintree session needs, and only those. Built by Tillpoint.',
  },
  {
    id: 'braintree-card-engine',
    source: /^checkout\/card-form\/hosted-fields-engine\.ts$/,
    loadedWhen: ['braintree', 'card'],
    justification:
      'Connects the page’s card form to Braintree Hosted Fields (field states, labels, tokenization); card data stays in Braintree’s iframes. Built by Tillpoint.',
  },
  {
    id: 'braintree-frames',
    // braintree-web's frame internals (framebus, iframer, event emitter) and the browser checks its components share.
    source: /^_braintree-frames-[\w-]+\.js$/,
    loadedWhen: ['braintree'],
    justification:
      'braintree-web 3.79.1 internals for its iframes (framebus messaging, iframe creation, events) and the browser checks its components share, used by Hosted Fields, 3-D Secure, PayPal and Venmo so none carries a copy. Only for Braintree card, PayPal or Venmo payments.',
  },
  {
    id: 'braintree-popup',
    source: /^_braintree-popup-[\w-]+\.js$/,
    loadedWhen: ['braintree', 'popup_window'],
    justification:
      'braintree-web 3.79.1’s popup window service, shared by paypal-checkout and local-payment: opens and watches the window PayPal’s or the bank’s page loads in. Loaded only with PayPal’s component or a local payment method’s, on a Braintree page. From the pinned npm package, bundled by Tillpoint.',
  },
  {
    id: 'braintree-checks',
    source: /^_braintree-checks-[\w-]+\.js$/,
    loadedWhen: ['braintree', 'three_d_secure'],
    justification:
      'Two braintree-web 3.79.1 browser checks (is the page on HTTPS, is it Firefox on iOS) shared by 3-D Secure, PayPal and Venmo: loaded with 3-D Secure, or with PayPal’s or Venmo’s component.',
  },
  {
    id: 'error-reporting-scrubber',
    source: /^\.\.\/src\/adapters\/telemetry\/sentry-privacy\.ts$/,
    loadedWhen: ['sentry'],
    justification:
      'The scrubber that removes card numbers, CVCs, emails and tokens from error reports before Sentry sends them; loads with the Sentry SDK, once the page is idle. Built by Tillpoint.',
  },
  {
    id: 'braintree-client',
    source: /(?:braintree-web\/(?:dist\/browser\/client|client\/index)\.js|^_braintree-client-[\w-]+\.js)$/,
    loadedWhen: ['braintree'],
    justification:
      'braintree-web 3.79.1 client: the connection to Braintree that every other Braintree component uses, built together with the internals they all share (errors, promises, analytics, asset loading) so each does not carry a copy. Only for accounts charging through Braintree.',
  },
  {
    id: 'braintree-hosted-fields',
    source: /braintree-web\/(?:dist\/browser\/hosted-fields|hosted-fields\/index)\.js$/,
    loadedWhen: ['braintree', 'card'],
    justification:
      'braintree-web Hosted Fields: puts the card number, expiry and CVC inputs in Braintree-hosted iframes, so card data never touches this page (SAQ A).',
  },
  {
    id: 'braintree-google-payment',
    source: /braintree-web\/(?:dist\/browser\/google-payment|google-payment\/index)\.js$/,
    loadedWhen: ['braintree', 'google_pay'],
    justification: 'braintree-web google-payment: turns the Google Pay sheet’s result into a Braintree nonce.',
  },
  {
    id: 'braintree-apple-pay',
    source: /braintree-web\/(?:dist\/browser\/apple-pay|apple-pay\/index)\.js$/,
    loadedWhen: ['braintree', 'apple_pay'],
    justification:
      'braintree-web apple-pay: validates the merchant with Apple through Braintree and turns the Apple Pay sheet’s token into a Braintree nonce. Loaded only when the session offers Apple Pay and the browser can pay with it.',
  },
  {
    id: 'braintree-paypal-checkout',
    source: /braintree-web\/(?:dist\/browser\/paypal-checkout|paypal-checkout\/index)\.js$/,
    loadedWhen: ['braintree', 'paypal'],
    justification:
      'braintree-web paypal-checkout: loads PayPal’s JS SDK for the session’s currency, creates the PayPal order for the session’s total through Braintree and turns the approval into a Braintree nonce. Loaded only when the session offers PayPal.',
  },
  {
    id: 'braintree-venmo',
    source: /braintree-web\/(?:dist\/browser\/venmo|venmo\/index)\.js$/,
    loadedWhen: ['braintree', 'venmo'],
    justification:
      'braintree-web venmo: switches to the Venmo app for the shopper’s approval and turns it into a Braintree nonce. Loaded only when the session offers Venmo.',
  },
  {
    id: 'braintree-local-payment',
    source: /braintree-web\/(?:dist\/browser\/local-payment|local-payment\/index)\.js$/,
    loadedWhen: ['braintree', 'local_payment'],
    justification:
      'braintree-web 3.79.1’s local-payment component: opens the bank’s window for a local payment method through Braintree (a popup from Braintree’s assets, a redirect back for a bank app) and names the payment before the shopper is sent to the bank. Loaded only when the session offers a local payment method. From the pinned npm package, bundled by Tillpoint.',
  },
  {
    id: 'braintree-us-bank-account',
    source: /braintree-web\/(?:dist\/browser\/us-bank-account|us-bank-account\/index)\.js$/,
    loadedWhen: ['braintree', 'us_bank_account'],
    justification:
      'braintree-web 3.79.1’s us-bank-account component: turns the bank account the shopper typed and the mandate they accepted into a Braintree nonce (a GraphQL request to Braintree); its bank-login flow, which would load Plaid’s script, is never used. Loaded only when the session offers a US bank account. From the pinned npm package, bundled by Tillpoint.',
  },
  {
    id: 'braintree-data-collector',
    source: /braintree-web\/(?:dist\/browser\/data-collector|data-collector\/index)\.js$/,
    loadedWhen: ['braintree'],
    justification: 'braintree-web data-collector: device data for Braintree’s fraud checks, sent with the payment.',
  },
  {
    id: 'braintree-three-d-secure',
    source: /braintree-web\/(?:dist\/browser\/three-d-secure|three-d-secure\/index)\.js$/,
    loadedWhen: ['braintree', 'card', 'three_d_secure'],
    justification: 'braintree-web 3-D Secure: runs the issuer’s authentication challenge (strong customer authentication) when a card payment needs one.',
  },
  {
    id: 'error-reporting',
    source: /@sentry\/react\//,
    loadedWhen: ['sentry'],
    justification:
      'Sentry browser SDK: reports the page’s own errors to the install’s error-reporting service, after the shared scrubber removed card numbers, CVCs, emails and tokens. Only when SENTRY_BROWSER_DSN is set.',
  },
  {
    id: 'checkout-styles',
    source: /\.css$/,
    loadedWhen: ['always'],
    justification: 'The checkout page’s stylesheet. Built by Tillpoint.',
  },
];

export const thirdPartyPurposes: readonly ThirdPartyPurpose[] = [
  {
    id: 'google-pay-js',
    origin: 'https://pay.google.com',
    path: '/gp/p/js/pay.js',
    loadedWhen: ['google_pay'],
    justification: 'Google Pay’s own library, required by Google to show the Google Pay button and payment sheet. Loaded only on pages that offer Google Pay.',
    integrityNote:
      'Google updates pay.js in place and documents no versioned URL, so no SRI hash can be pinned; the CSP allows exactly this origin and the page loads exactly this path.',
  },
  {
    id: 'paypal-fraudnet',
    origin: 'https://c.paypal.com',
    path: '/da/r/fb.js',
    loadedWhen: ['braintree'],
    justification: 'PayPal FraudNet, loaded by braintree-web data-collector for Braintree’s fraud scoring.',
    integrityNote: 'Loaded by braintree-web from PayPal, who update it in place; limited by the CSP to this exact origin.',
  },
  {
    id: 'paypal-js-sdk',
    origin: 'https://www.paypal.com',
    path: '/sdk/js',
    loadedWhen: ['braintree', 'paypal'],
    justification:
      'PayPal’s JS SDK, which draws PayPal’s own button and opens PayPal’s window; loaded by braintree-web paypal-checkout (loadPayPalSDK) only when the session offers PayPal.',
    integrityNote:
      'PayPal serves the SDK for each client id and currency and updates it in place, so no SRI hash can be pinned; limited by the CSP to this exact origin.',
  },
  {
    id: 'cardinal-songbird',
    origin: 'https://songbird.cardinalcommerce.com',
    path: '/edge/v1/songbird.js',
    loadedWhen: ['braintree', 'card', 'three_d_secure'],
    justification: 'Cardinal Commerce Songbird, loaded by braintree-web three-d-secure in production to run the issuer’s 3-D Secure challenge.',
    integrityNote: 'Loaded by braintree-web from Cardinal Commerce, who update it in place; limited by the CSP to this exact origin.',
  },
  {
    id: 'cardinal-songbird-sandbox',
    origin: 'https://songbirdstag.cardinalcommerce.com',
    path: '/edge/v1/songbird.js',
    loadedWhen: ['braintree', 'card', 'three_d_secure'],
    justification: 'Cardinal Commerce Songbird (Braintree sandbox): the same 3-D Secure script for test payments.',
    integrityNote: 'Loaded by braintree-web from Cardinal Commerce, who update it in place; limited by the CSP to this exact origin.',
  },
];
