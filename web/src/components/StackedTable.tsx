import type { ReactNode, TdHTMLAttributes } from 'react';

/**
 * A table that becomes one card per row below the `md` breakpoint (index.css, `.stacked-table`), so every
 * cell and every action is on screen on a phone, without sideways scrolling. Each cell names its column
 * (`Cell`'s label, shown on the card); screen readers keep the table and its headers at every width.
 */
export function StackedTable({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <div className="rounded-box border border-base-300 bg-base-100 max-md:border-0 max-md:bg-transparent">
      <table className={`table stacked-table ${className}`}>{children}</table>
    </div>
  );
}

/** A cell of a StackedTable: on a card, its column's label stands before the value. */
export function Cell({
  label,
  children,
  className = '',
  ...props
}: { label: string; children?: ReactNode } & TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={className} {...props}>
      {label ? (
        <>
          <span className="stacked-label" aria-hidden="true">
            {label}
          </span>
          {/* The value as an element of its own: the cell's text is the value, whatever the width. */}
          <span>{children}</span>
        </>
      ) : (
        children
      )}
    </td>
  );
}

/** The row's header cell (its number) of a StackedTable. */
export function RowHeader({ children }: { children: ReactNode }) {
  return (
    <th scope="row">
      <span className="stacked-label" aria-hidden="true">
        #
      </span>
      <span>{children}</span>
    </th>
  );
}
