import { assignVariant } from './experiment-assignment';
import type { FlagValue, Flag, Experiment } from './entities';

/**
 * The flags Tillpoint itself reads. Each exists in every account and mode with its default until a
 * merchant sets it; custom flags may be added beside them over the API.
 */
export const builtInFlags = {
  card_enabled: {
    default: true as FlagValue,
    values: null,
    description: 'Kill switch: the checkout page offers the card form and the server accepts card payments',
  },
  google_pay_enabled: {
    default: true as FlagValue,
    values: null,
    description: 'Kill switch: the checkout page offers the Google Pay button and the server accepts Google Pay',
  },
  apple_pay_enabled: {
    default: true as FlagValue,
    values: null,
    description: 'Kill switch: the server accepts Apple Pay payments (apple_pay sessions) while on',
  },
  paypal_enabled: {
    default: true as FlagValue,
    values: null,
    description: 'Kill switch: the server accepts PayPal payments (paypal sessions) while on',
  },
  venmo_enabled: {
    default: true as FlagValue,
    values: null,
    description: 'Kill switch: the server accepts Venmo payments (venmo sessions) while on',
  },
  three_d_secure: {
    default: 'when_required' as FlagValue,
    values: ['off', 'when_required', 'always'] as const,
    description: '3-D Secure: off, when the issuer or regulation requires it, or on every card payment',
  },
} as const;
export type BuiltInFlagKey = keyof typeof builtInFlags;
export const builtInFlagKeys = Object.keys(builtInFlags) as BuiltInFlagKey[];

/**
 * The checkout-page surfaces an experiment may vary, with the variants the page knows how to render
 * and what the page shows when no experiment runs.
 */
export const experimentSurfaces = {
  checkout_layout: { variants: ['wallet_first', 'card_first'], default: 'wallet_first' },
  pay_button_wording: { variants: ['pay', 'pay_now', 'complete_purchase'], default: 'pay' },
} as const satisfies Record<string, { variants: readonly string[]; default: string }>;
export type ExperimentSurface = keyof typeof experimentSurfaces;

export const isBuiltInFlag = (key: string): key is BuiltInFlagKey => Object.hasOwn(builtInFlags, key);
export const isExperimentSurface = (key: string): key is ExperimentSurface => Object.hasOwn(experimentSurfaces, key);

/** One flag's evaluation, in OpenFeature's terms (the OFREP success or failure shapes). */
export type FlagEvaluation =
  | {
      key: string;
      value: FlagValue;
      variant: string;
      /** STATIC: set by the merchant; DEFAULT: never set; SPLIT: an experiment assigned it. */
      reason: 'STATIC' | 'DEFAULT' | 'SPLIT';
      metadata: Record<string, string | number | boolean>;
    }
  | { key: string; errorCode: 'FLAG_NOT_FOUND' | 'TARGETING_KEY_MISSING'; errorDetails: string };

const variantOf = (value: FlagValue) => (typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value));

/**
 * Evaluates one flag for one unit (a checkout session id, as `targetingKey`). A running experiment
 * on the key wins over any stored value; then the stored value; then the built-in default.
 */
export function evaluateFlag(key: string, stored: Flag | null, runningExperiment: Experiment | null, targetingKey: string | null): FlagEvaluation {
  if (runningExperiment) {
    if (!targetingKey) {
      return { key, errorCode: 'TARGETING_KEY_MISSING', errorDetails: `${key} is an experiment: send a targetingKey` };
    }
    const variant = assignVariant(runningExperiment.id, targetingKey, runningExperiment.variants);
    return { key, value: variant, variant, reason: 'SPLIT', metadata: { experiment: runningExperiment.id } };
  }
  if (stored) return { key, value: stored.value, variant: variantOf(stored.value), reason: 'STATIC', metadata: {} };
  if (isBuiltInFlag(key)) {
    const value = builtInFlags[key].default;
    return { key, value, variant: variantOf(value), reason: 'DEFAULT', metadata: {} };
  }
  if (isExperimentSurface(key)) {
    const value = experimentSurfaces[key].default;
    return { key, value, variant: value, reason: 'DEFAULT', metadata: {} };
  }
  return { key, errorCode: 'FLAG_NOT_FOUND', errorDetails: `No flag named ${key}` };
}

/** Every key an account and mode can evaluate: built-ins, experiment surfaces, its custom flags. */
export function evaluableKeys(stored: Flag[]): string[] {
  return [...new Set([...builtInFlagKeys, ...Object.keys(experimentSurfaces), ...stored.map((f) => f.key)])];
}
