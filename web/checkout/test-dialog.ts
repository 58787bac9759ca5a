import type { Translate } from './i18n';

/**
 * Test mode's stand-in for a third party's window (a bank's 3-D Secure challenge, PayPal's or
 * Venmo's approval): a modal dialog over the page with a title and one button per answer. Resolves
 * with the chosen answer, or null when the shopper closes it without one (Escape, or an answer of null).
 */
export async function testDialog<T>(t: Translate, title: string, answers: ReadonlyArray<{ label: string; value: T | null }>): Promise<T | null> {
  // Its stylesheet comes with the first dialog: none is shown before a test payment asks for one.
  await import('./test-dialog.css');
  return new Promise((resolve) => {
    const dialog = document.createElement('dialog');
    dialog.className = 'test-dialog';
    dialog.setAttribute('aria-labelledby', 'test-dialog-title');
    dialog.dir = t.dir;
    dialog.lang = t.lang;
    const heading = document.createElement('h2');
    heading.id = 'test-dialog-title';
    heading.textContent = title;
    const actions = document.createElement('div');
    actions.className = 'test-dialog-actions';
    let result: T | null = null;
    // The first answer is the one a test usually wants (approve, pass): it stands out; the others are plainer.
    for (const [index, answer] of answers.entries()) {
      const element = document.createElement('button');
      element.type = 'button';
      element.className = index === 0 ? 'pay-button' : 'secondary-button';
      element.textContent = answer.label;
      element.addEventListener('click', () => {
        result = answer.value;
        dialog.close();
      });
      actions.append(element);
    }
    dialog.append(heading, actions);
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
