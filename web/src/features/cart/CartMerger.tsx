import { useEffect, useRef } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useMergeCartMutation } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { useAuth } from '../../lib/auth';
import { writeCart } from '../../lib/cart/cartCache';
import { visitorCart } from '../../lib/cart/visitorCart';

/**
 * At sign-in, the visitor's cart (this browser's) goes into the account's cart on the server (mergeCart: the
 * amounts of a part in both are summed, then capped at what can be ordered; docs/decisions.md) and is emptied
 * here. Lines that could not go in whole are told in a toast.
 */
export function CartMerger() {
  const { status } = useAuth();
  const [merge] = useMergeCartMutation({ update: (cache, r) => writeCart(cache, r.data?.mergeCart.cart) });
  const running = useRef(false);
  useEffect(() => {
    if (status !== 'signedIn' || running.current) return;
    const lines = visitorCart.lines();
    if (!lines.length) return;
    running.current = true;
    // The merge's id is kept with the cart until it is emptied: sent again after a reload, it merges nothing twice.
    const mergeId = visitorCart.mergeId();
    merge({ variables: { lines: lines.map((l) => ({ partId: l.partId, amount: l.amount })), mergeId } })
      .then(({ data }) => {
        visitorCart.clear();
        for (const note of data?.mergeCart.notes ?? []) toast.error(note.message);
      })
      .catch((e: unknown) => toast.error(`Your cart could not be saved to your account: ${errorMessage(e)}`))
      .finally(() => {
        running.current = false;
      });
  }, [status, merge]);
  return null;
}
