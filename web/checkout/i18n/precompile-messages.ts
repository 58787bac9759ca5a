import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

/** Message catalogues the build precompiles: the checkout's locales and the dashboard's messages. */
const catalogueFile = /\/web\/(checkout\/i18n\/locales|dashboard\/i18n)\/[^/?]+\.json(\?|$)/;

/**
 * A Vite plugin: each message catalogue (JSON of ICU strings) becomes JSON of the parser's ASTs at
 * build time, so the browser runs FormatJS without its parser (see `parserlessRuntime`). A message
 * that does not parse fails the build, naming the file and key.
 */
export function precompileMessages(): Plugin {
  return {
    name: 'tillpoint:precompile-messages',
    enforce: 'pre',
    transform(code, id) {
      if (!catalogueFile.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => {
          try {
            return [key, parse(message)];
          } catch (error) {
            throw new Error(`${id}: message '${key}' is not valid ICU MessageFormat: ${(error as Error).message}`);
          }
        }),
      );
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

/** Aliases the ICU parser to its parser-less build: every message reaches the page precompiled. */
export const parserlessRuntime = [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }];
