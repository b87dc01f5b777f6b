import { CurrentBikeChip } from '../../components/garage/CurrentBikeChip';
import { CatalogView } from './catalog/CatalogView';

export { catalogPageSize, searchDebounceMs } from './catalog/CatalogView';
export { pageWindow } from './catalog/Pagination';

/**
 * All parts (/parts): searched, filtered by category, brand and stock with counts, paged, the view kept in the URL
 * (?q=&category=&brand=&inStock=1&bike=all&page=); with a current bike, only what fits it and universal parts.
 */
export default function CatalogPage() {
  return (
    <CatalogView
      title="All Parts"
      intro={<p>Every part we stock, sold in bulk from its minimum order.</p>}
      actions={<CurrentBikeChip />}
    />
  );
}
