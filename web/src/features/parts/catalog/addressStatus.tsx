import type { ApolloError } from '@apollo/client';
import { Link } from 'react-router-dom';
import { errorMessage } from '../../../lib/apollo';

/**
 * (A function, not a component: its caller renders its catalog only when this is null.) What a page with an address of its own (a category's, a bike's) shows before its catalog: the look-up's error,
 * a placeholder while it loads, or that nothing has that address. Null once the page has what it names.
 */
export function addressStatus({
  error,
  loading,
  found,
  what,
}: {
  /** The look-up's error, when it has no answer. */
  error: ApolloError | undefined;
  /** The look-up has no answer yet. */
  loading: boolean;
  found: boolean;
  /** "category", "bike": "No such category", "There is no category at this address." */
  what: string;
}) {
  if (error) {
    return (
      <section className="mx-auto max-w-7xl px-4 py-12">
        <div role="alert" className="alert alert-error alert-soft">
          {errorMessage(error)}
        </div>
      </section>
    );
  }
  if (loading) {
    return (
      <section className="mx-auto max-w-7xl px-4 py-12" aria-busy="true">
        <div className="skeleton h-10 w-64" />
      </section>
    );
  }
  if (!found) {
    return (
      <section className="mx-auto flex max-w-7xl flex-col items-start gap-4 px-4 py-12">
        <h1 className="text-3xl font-extrabold">No such {what}</h1>
        <p>There is no {what} at this address.</p>
        <Link to="/parts" className="btn btn-primary">
          See all parts
        </Link>
      </section>
    );
  }
  return null;
}
