import type { ButtonHTMLAttributes } from 'react';

const spinnerSize = { xs: 'loading-xs', sm: 'loading-sm' } as const;

/**
 * A button whose action may take a while: while `busy` it is disabled and shows a small spinner before its
 * label, so the action cannot be sent twice. A submit button unless `type` says otherwise.
 */
export function BusyButton({
  busy,
  spinner = 'sm',
  disabled,
  type = 'submit',
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean; spinner?: keyof typeof spinnerSize }) {
  return (
    <button type={type} disabled={busy || disabled} {...props}>
      {busy && <span className={`loading loading-spinner ${spinnerSize[spinner]}`} />}
      {children}
    </button>
  );
}
