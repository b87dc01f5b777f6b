import { useId, type ReactNode } from 'react';
import { BusyButton } from './BusyButton';
import { Modal } from './Modal';

interface ConfirmModalProps {
  open: boolean;
  title: string;
  body?: ReactNode;
  /** What the confirming button does ("Delete", "Cancel order", "Make admin"). */
  confirmLabel?: string;
  /** What the dismissing button says ("Cancel", "Keep order"). */
  cancelLabel?: string;
  /** A destructive action is red; others take the primary colour. */
  tone?: 'danger' | 'primary';
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A confirm dialog (daisyUI modal on <dialog>): Escape, the backdrop or the dismissing button closes it. It
 * opens with focus on the dismissing button, the safe choice, and gives focus back where it was.
 */
export function ConfirmModal({
  open,
  title,
  body,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  tone = 'danger',
  busy = false,
  onConfirm,
  onClose,
}: ConfirmModalProps) {
  const titleId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={titleId} className="modal modal-bottom sm:modal-middle">
      <div className="modal-box">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        {body && <div className="flex flex-col gap-2 py-4 [overflow-wrap:anywhere]">{body}</div>}
        <div className="modal-action flex-wrap">
          <button type="button" className="btn" onClick={onClose} data-autofocus>
            {cancelLabel}
          </button>
          <BusyButton
            type="button"
            className={`btn ${tone === 'danger' ? 'btn-error' : 'btn-primary'}`}
            busy={busy}
            onClick={onConfirm}
          >
            {confirmLabel}
          </BusyButton>
        </div>
      </div>
    </Modal>
  );
}
