import type { ApolloCache } from '@apollo/client';
import { CartDocument, type CartFieldsFragment, type CartQuery } from '../../generated/graphql';

/** Every cart mutation answers the whole cart: it replaces the `cart` query's answer in Apollo's cache. */
export function writeCart(cache: ApolloCache<unknown>, cart: CartFieldsFragment | undefined): void {
  if (!cart) return;
  cache.writeQuery<CartQuery>({ query: CartDocument, data: { cart } });
}
