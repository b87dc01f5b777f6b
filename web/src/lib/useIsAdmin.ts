import { useMeQuery } from '../generated/graphql';
import { useAuth } from './auth';

/** The signed-in user's admin flag, as the server says (spec §6: a lookup by the server). */
export function useIsAdmin(): { isAdmin: boolean; loading: boolean } {
  const { status } = useAuth();
  const { data, loading } = useMeQuery({ skip: status !== 'signedIn', fetchPolicy: 'cache-and-network' });
  return {
    isAdmin: Boolean(data?.me.isAdmin),
    loading: status === 'loading' || (status === 'signedIn' && loading && !data),
  };
}
