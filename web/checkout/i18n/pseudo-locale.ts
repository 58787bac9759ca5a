import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Catalogue, Message } from './index';

const plain = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const accented = 'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ';
const accent = new Map([...plain].map((c, i) => [c, [...accented][i]!]));

/**
 * English made strange but readable: every letter accented, every vowel doubled (about 40 % longer,
 * as German or Finnish often are), the whole message in ⟦ ⟧ so a clipped end shows. Placeholders,
 * plurals and numbers are untouched, so the pseudo-locale works exactly like a real one.
 */
export function pseudoText(text: string): string {
  return [...text].map((c) => (/[aeiouyAEIOUY]/.test(c) ? accent.get(c)!.repeat(2) : (accent.get(c) ?? c))).join('');
}

function pseudoElements(ast: MessageFormatElement[]): MessageFormatElement[] {
  return ast.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: pseudoText(element.value) };
    if ('options' in element) {
      const options = Object.fromEntries(Object.entries(element.options).map(([name, option]) => [name, { ...option, value: pseudoElements(option.value) }]));
      return { ...element, options } as MessageFormatElement;
    }
    if (element.type === TYPE.tag) return { ...element, children: pseudoElements(element.children) };
    return element;
  });
}

export function pseudoMessage(message: Message): MessageFormatElement[] {
  const ast = typeof message === 'string' ? parse(message) : message;
  return [{ type: TYPE.literal, value: '⟦' }, ...pseudoElements(ast), { type: TYPE.literal, value: '⟧' }];
}

/** The pseudo-locale's catalogue, generated from English (never written by hand). */
export function pseudoLocalize(english: Catalogue): Catalogue {
  return Object.fromEntries(Object.entries(english).map(([key, message]) => [key, pseudoMessage(message)])) as Catalogue;
}
