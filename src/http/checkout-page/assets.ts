import { readManifest } from './built-assets';

/**
 * What a page needs before the shopper can type, beyond the entry: the card engine of its processor,
 * and for Braintree the braintree-web components it uses. The server knows all of it from the
 * session, so the browser fetches these in parallel with the entry instead of discovering them
 * one import at a time.
 */
export interface PagePreloads {
  /** The test processor's card form. */
  builtinCard: boolean;
  /** A Braintree account with a client token: Hosted Fields for cards, google-payment for Google Pay. */
  braintree: { card: boolean; googlePay: boolean } | null;
}

export const noPreloads: PagePreloads = { builtinCard: false, braintree: null };

/**
 * braintree-web's client: its own module, or the chunk the build groups it in with the internals
 * every component shares (vite.config.ts).
 */
const braintreeClient = /(?:braintree-web\/(?:dist\/browser\/)?client(?:\/index)?\.js|^_braintree-client-[\w-]+\.js)$/;

/** Sources (manifest keys) of the chunks each preload names. */
const sources = {
  /** React's part of the page (hydrate.tsx), which the entry imports. */
  app: [/(?:checkout\/hydrate\.tsx|^_hydrate-[\w-]+\.js)$/],
  /** What the entry starts before React on a Braintree card page: the client and Hosted Fields. */
  braintreeFirst: [
    /(?:checkout\/braintree\/early-hosted-fields\.ts|^_braintree-early-[\w-]+\.js)$/,
    braintreeClient,
    /braintree-web\/(?:dist\/browser\/)?hosted-fields(?:\/index)?\.js$/,
  ],
  builtinCard: [/checkout\/card-form\/builtin-engine\.ts$/, /checkout\/test-processor-client\.ts$/],
  braintree: [/checkout\/braintree\/braintree-components\.ts$/, braintreeClient],
  braintreeGooglePay: [/braintree-web\/(?:dist\/browser\/)?google-payment(?:\/index)?\.js$/],
};

/**
 * Where Braintree's Hosted Fields frames come from (both environments): the browser may open the
 * connection while the page's scripts load.
 */
const BRAINTREE_FRAMES_ORIGIN = 'https://assets.braintreegateway.com';

/** The head markup of one page configuration: stylesheets, the entry script and modulepreload hints. */
export interface CheckoutAssets {
  /**
   * Plain HTML, built once per configuration and reused: every `<script>` and `<link>` here points
   * under /assets/, so a post-processing step over this string (e.g. adding `integrity`) sees every
   * first-party file the page loads before the shopper can type.
   */
  head(preloads: PagePreloads): string;
  /** The same files as paths (`/assets/…`), in the order the head names them. */
  files(preloads: PagePreloads): string[];
  /**
   * The files of the chunks built from these sources (manifest keys, e.g. an on-demand part of the
   * page) and of everything they import statically: what the browser fetches to run them.
   */
  chunks(sources: RegExp[]): string[];
}

/**
 * Reads the build manifest of `webRoot` (dist/web); null until `npm run build` has made it. The
 * manifest is read once: a new build means a restart, as the hashed names change. `secure` rewrites
 * each configuration's head markup once, when first built (Subresource Integrity and the integrity
 * import map: subresource-integrity.ts), never per request.
 */
export function loadCheckoutAssets(webRoot: string, secure: (html: string) => string = (html) => html): CheckoutAssets | null {
  const manifest = readManifest(webRoot);
  if (!manifest) return null;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry && /checkout\/main\.tsx$/.test(key));
  if (!entryKey) return null;

  const keysFor = (patterns: RegExp[]) =>
    patterns.map((pattern) => {
      const key = Object.keys(manifest).find((k) => pattern.test(k));
      if (!key) throw new Error(`The build manifest has no chunk for ${pattern}: rebuild with npm run build`);
      return key;
    });

  /** A chunk and everything it imports statically (what the browser must have to run it). */
  const closure = (keys: string[]) => {
    const scripts: string[] = [];
    const styles: string[] = [];
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key]!;
      scripts.push(`/${chunk.file}`);
      for (const css of chunk.css ?? []) styles.push(`/${css}`);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    keys.forEach(visit);
    return { scripts, styles };
  };

  const cache = new Map<string, { head: string; files: string[] }>();
  const build = (preloads: PagePreloads) => {
    const cacheKey = JSON.stringify(preloads);
    const cached = cache.get(cacheKey);
    if (cached) return cached;
    // A Braintree card page types into Hosted Fields, which the entry starts before React: its head
    // names only those (React and the rest load once the frames take typing, web/checkout/main.tsx).
    // Every other page hydrates at once, so React's part and its processor's chunks come with it.
    const framesFirst = Boolean(preloads.braintree?.card);
    const extra = framesFirst
      ? sources.braintreeFirst
      : [
          ...sources.app,
          ...(preloads.builtinCard ? sources.builtinCard : []),
          ...(preloads.braintree ? sources.braintree : []),
          ...(preloads.braintree?.googlePay ? sources.braintreeGooglePay : []),
        ];
    const { scripts, styles } = closure([entryKey, ...keysFor(extra)]);
    const [entry, ...preloaded] = scripts;
    const head = secure(
      [
        ...(framesFirst ? [`<link rel="preconnect" href="${BRAINTREE_FRAMES_ORIGIN}">`] : []),
        ...styles.map((href) => `<link rel="stylesheet" href="${href}">`),
        `<script type="module" src="${entry}"></script>`,
        ...preloaded.map((href) => `<link rel="modulepreload" href="${href}">`),
      ].join('\n'),
    );
    const built = { head, files: [...styles, ...scripts] };
    cache.set(cacheKey, built);
    return built;
  };

  return {
    head: (preloads) => build(preloads).head,
    files: (preloads) => build(preloads).files,
    chunks: (patterns) => {
      const { scripts, styles } = closure(keysFor(patterns));
      return [...styles, ...scripts];
    },
  };
}
