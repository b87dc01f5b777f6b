import { useMeQuery } from '../../generated/graphql';
import { useOptionalAuth } from '../../lib/auth';

/**
 * True for a signed-in customer (not a visitor, not an admin): saved lists and order again are theirs. False
 * while it is not yet known, so nothing is offered that would then vanish.
 */
export function useIsCustomer(): boolean {
  const signedIn = useOptionalAuth()?.status === 'signedIn';
  const { data } = useMeQuery({ skip: !signedIn, fetchPolicy: 'cache-first' });
  return signedIn && Boolean(data?.me) && !data?.me.isAdmin;
}
