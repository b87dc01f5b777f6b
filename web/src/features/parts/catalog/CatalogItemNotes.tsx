import type { CatalogListQuery } from '../../../generated/graphql';

export type CatalogItem = CatalogListQuery['catalog']['items'][number];

/**
 * What the catalog says of one listed part: "Universal" (it fits any bike), the fit's note for the bike (when the
 * fitment has one), and for a search why the part was found (its reason, and the replaced part it stands for).
 */
export function CatalogItemNotes({ item }: { item: CatalogItem }) {
  const fitNote = item.fit?.verdict === 'FITS_WITH_NOTE' ? item.fit.message : null;
  if (!item.universal && !fitNote && !item.reason && !item.replaces) return null;
  return (
    <div className="flex flex-col gap-1 text-sm [overflow-wrap:anywhere]" data-testid="catalog-item-notes">
      {item.universal && (
        <p>
          <span className="badge badge-neutral badge-sm">Universal</span>
          <span className="sr-only">: fits any bike</span>
        </p>
      )}
      {fitNote && <p className="rounded-field bg-warning/20 px-2 py-1 text-base-content">{fitNote}</p>}
      {item.reason && (
        <p className="text-base-content">
          <span className="font-semibold">Found by: </span>
          {item.reason}
        </p>
      )}
      {item.replaces && (
        <p className="text-base-content">
          <span className="font-semibold">Replaces: </span>
          {item.replaces.name}
        </p>
      )}
    </div>
  );
}
