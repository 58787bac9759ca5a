import { recordAudit } from '../../team/audit';
import type { Deps } from '../../deps';
import type { Actor } from '../../team/entities';
import type { ScriptNote } from '../entities';

/** The merchant's own justification of one inventory script (empty text removes it), audited. */
export async function annotateCheckoutPageScript(
  deps: Deps,
  options: { accountId: string; scriptId: string; note: string; actor: Actor },
): Promise<ScriptNote> {
  return deps.store.transaction(async (tx) => {
    const at = deps.clock.now();
    const note: ScriptNote = {
      accountId: options.accountId,
      scriptId: options.scriptId,
      note: options.note.trim(),
      updatedBy: options.actor.label,
      updatedAt: at,
    };
    await tx.checkoutPage.saveNote(note);
    await recordAudit(tx, {
      accountId: options.accountId,
      mode: null,
      actor: options.actor,
      action: 'checkout_page.script_annotate',
      target: options.scriptId,
      at,
    });
    return note;
  });
}
