import { useId, type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog';

/**
 * A question before an action that cannot be taken back by a click, as the desktop client asks
 * before removing a friend or blocking someone: a modal dialog (focus inside it, Escape or
 * Cancel closes it) whose confirm button names the action.
 */
export function ConfirmDialog({
  title,
  children,
  confirm,
  busy,
  onConfirm,
  onCancel,
}: {
  readonly title: string;
  readonly children: ReactNode;
  /** The confirm button's words (the action, e.g. "Block"). */
  readonly confirm: string;
  readonly busy: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}): ReactNode {
  const { dialogRef, onKeyDown } = useModalDialog(onCancel);
  const titleId = useId();
  const descriptionId = useId();
  return (
    <div className="overlay">
      <div
        ref={dialogRef}
        className="confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid="confirm-dialog"
      >
        <h2 id={titleId}>{title}</h2>
        <p id={descriptionId}>{children}</p>
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={onCancel} data-testid="confirm-cancel">
            Cancel
          </button>
          <button type="button" className="danger" disabled={busy} onClick={onConfirm} data-testid="confirm-ok">
            {confirm}
          </button>
        </div>
      </div>
    </div>
  );
}
