import { useId } from 'react';
import { useT } from './i18n';

/**
 * The one confirmation asked before an irreversible action (capture, void, refund, submitting or
 * accepting a dispute, revoking a key, deleting): in the page, where the action was started, saying
 * what will happen. Focus goes to the safe way back; the action runs only from its own button.
 */
export function Confirm({
  message,
  confirmLabel,
  cancelLabel,
  busy = false,
  onConfirm,
  onCancel,
}: {
  message: string;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const id = useId();
  return (
    <dialog open className="panel confirm-panel" aria-labelledby={id} data-testid="confirm">
      <p id={id} className="confirm">
        {message}
      </p>
      <div className="actions">
        <button type="button" className="danger" disabled={busy} aria-busy={busy} onClick={onConfirm}>
          {busy ? t('confirm.working') : confirmLabel}
        </button>{' '}
        {/* biome-ignore lint/a11y/noAutofocus: the confirmation just opened: focus goes to its safe choice. */}
        <button type="button" className="secondary" autoFocus disabled={busy} onClick={onCancel}>
          {cancelLabel ?? t('confirm.cancel')}
        </button>
      </div>
    </dialog>
  );
}
