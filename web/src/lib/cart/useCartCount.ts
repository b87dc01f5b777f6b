import { useSyncExternalStore } from 'react';
import { useCartQuery } from '../../generated/graphql';
import { useOptionalAuth } from '../auth';
import { visitorCart } from './visitorCart';

/**
 * How many parts (lines) the cart holds, for the header's badge: the server's cart while signed in, this
 * browser's for a visitor. Kept apart from useCart, which carries the purchase rules (and their validation
 * library) that every page's header does not need.
 */
export function useCartCount(): number {
  const signedIn = useOptionalAuth()?.status === 'signedIn';
  const { data } = useCartQuery({ skip: !signedIn, fetchPolicy: 'cache-first' });
  const local = useSyncExternalStore(visitorCart.subscribe, visitorCart.lines, () => []);
  return signedIn ? (data?.cart.lines.length ?? 0) : local.length;
}
