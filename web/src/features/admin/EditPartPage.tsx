import { Link, useParams } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useEditableBrandsQuery, useEditableCategoriesQuery, useEditPartQuery } from '../../generated/partEditing';
import { FitmentEditor } from './FitmentEditor';
import { PartDetailsForm } from './PartDetailsForm';
import { StockPanel } from './StockPanel';

/**
 * Editing one part (admin; issue 33 point 5), reached from Manage Parts: its fields, numbers, brand, category and
 * replacement in one form; the bikes it fits, added and removed row by row; its stock, changed only by an
 * adjustment with a reason, and the history of those.
 */
export default function EditPartPage() {
  const { partId = '' } = useParams();
  const { data, loading, error, refetch } = useEditPartQuery({
    variables: { id: partId },
    fetchPolicy: 'cache-and-network',
  });
  const brands = useEditableBrandsQuery({ fetchPolicy: 'cache-and-network' });
  const categories = useEditableCategoriesQuery({ fetchPolicy: 'cache-and-network' });
  const part = data?.part;

  if (loading && !data) return <Spinner centered />;
  if (!part) {
    return (
      <section className="flex flex-col items-start gap-3">
        <h2 className="text-xl font-bold">Part not found</h2>
        <p>{error ? `The part could not load: ${error.message}` : 'No part has this address.'}</p>
        <div className="flex gap-2">
          {error && (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()}>
              Try again
            </button>
          )}
          <Link to="/dashboard/manage-parts" className="btn btn-primary btn-sm">
            Back to Manage Parts
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className="flex max-w-4xl flex-col gap-6">
      <div>
        <Link to="/dashboard/manage-parts" className="link text-sm">
          ← Manage Parts
        </Link>
        <h2 className="mt-1 text-xl font-bold [overflow-wrap:anywhere]">Edit {part.name}</h2>
        <p className="text-sm text-base-content/80">
          SKU <span className="font-mono">{part.sku}</span>
        </p>
      </div>
      <PartDetailsForm part={part} brands={brands.data?.brands ?? []} categories={categories.data?.categories ?? []} />
      <StockPanel part={part} />
      <FitmentEditor partId={part.id} />
    </section>
  );
}
