import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  /** The id of the element naming the dialog (its heading). */
  labelledBy: string;
  /** Classes of the <dialog> element (daisyUI's `modal`, or a drawer's). */
  className: string;
  children: ReactNode;
}

/**
 * A modal <dialog>: the page behind it is inert, Escape and a click on the backdrop close it, focus starts on
 * the element marked `data-autofocus` and goes back to where it was when the dialog opened (or, if that element
 * is gone, to the page's main content).
 */
export function Modal({ open, onClose, labelledBy, className, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal?.();
      // The element marked to start with (a dialog's safe choice); else the browser's first focusable one.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close?.();
  }, [open]);
  const restoreFocus = () => {
    const target = returnTo.current?.isConnected ? returnTo.current : document.getElementById('main');
    returnTo.current = null;
    target?.focus();
  };
  const onBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    // A click on the dialog element itself, not on its box, is a click on the backdrop.
    if (event.target === event.currentTarget) onClose();
  };
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={labelledBy}
      onClose={() => {
        restoreFocus();
        onClose();
      }}
      onClick={onBackdrop}
    >
      {children}
    </dialog>
  );
}
