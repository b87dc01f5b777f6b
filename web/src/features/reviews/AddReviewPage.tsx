import { Link } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useMyPaymentsQuery } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';

/** The customer's paid orders, each with a link to review its part (spec "Add Review page"). */
export default function AddReviewPage() {
  const { data, loading, error } = useMyPaymentsQuery({ fetchPolicy: 'cache-and-network' });
  const paid = data?.myPayments ?? [];

  return (
    <section className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold">You can only add a review for paid orders.</h2>
      {loading && !data ? (
        <Spinner />
      ) : !data ? (
        <p role="alert" className="text-red-600">
          {errorMessage(error)}
        </p>
      ) : paid.length === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
          <p>You have no paid orders yet.</p>
          <Link to="/dashboard/my-orders" className="btn btn-primary btn-sm">
            My Orders
          </Link>
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {paid.map((payment) => (
            <li
              key={payment.id}
              data-testid="paid-order"
              className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="font-semibold">{payment.partName}</span>
              {payment.partId ? (
                <Link to={`/reviews/${payment.partId}`} className="btn btn-primary btn-sm">
                  Add a review
                </Link>
              ) : (
                <span className="text-sm text-gray-700">This part is no longer sold</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
