import { useId, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import { useOrderAgainMutation, type CartFromLinesFieldsFragment } from '../../generated/lists';
import { errorMessage } from '../../lib/apollo';
import { writeCart } from '../../lib/cart/cartCache';
import { BusyButton } from '../BusyButton';
import { Modal } from '../Modal';
import { badLines, LineProblem, lineName } from './LineProblem';

/** Which past order goes back into the cart: one order, or every order of one checkout. */
export type PastOrder = { orderId: string } | { checkoutId: string };

/** What an order-again attempt left to show: the lines that kept it out of the cart. */
interface Refusal {
  label: string;
  check: CartFromLinesFieldsFragment['check'];
}

/**
 * Order again (issue 34 point 2): the past order's lines go into the cart at once, all or none. When they went
 * in, a toast says so and the cart opens; when not, a dialog lists each line's problem (a replaced part offers
 * its replacement, a part no longer sold says so) and the cart is unchanged.
 */
export function useOrderAgain() {
  const navigate = useNavigate();
  const [orderAgain] = useOrderAgainMutation({
    update: (cache, r) => {
      if (r.data?.orderAgain.added) writeCart(cache, r.data.orderAgain.cart);
    },
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const run = async (from: PastOrder, label: string) => {
    const key = 'orderId' in from ? from.orderId : from.checkoutId;
    setBusy(key);
    try {
      const { data } = await orderAgain({ variables: { from } });
      const result = data?.orderAgain;
      if (!result) return;
      if (result.added) {
        const count = result.check.lines.length;
        toast.success(`Added ${count} ${count === 1 ? 'part' : 'parts'} from ${label} to your cart.`);
        void navigate('/cart');
      } else {
        setRefusal({ label, check: result.check });
      }
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };
  return { run, busy, refusal, dismiss: () => setRefusal(null) };
}

/** An "Order again" button (its label says which). */
export function OrderAgainButton({
  from,
  label,
  what,
  busy,
  onOrderAgain,
  children,
}: {
  from: PastOrder;
  label: string;
  what?: string;
  busy: boolean;
  onOrderAgain: (from: PastOrder, label: string) => void;
  children: string;
}) {
  return (
    <BusyButton
      type="button"
      spinner="xs"
      // On white whatever the row: the primary red on the checkout row's grey is below 4.5:1.
      className="btn btn-outline btn-primary btn-sm bg-base-100"
      busy={busy}
      onClick={() => onOrderAgain(from, label)}
    >
      {children}
      {what && <span className="sr-only"> {what}</span>}
    </BusyButton>
  );
}

/** The dialog of a refused order again: nothing was added, and why, line by line. */
export function OrderAgainRefusal({ refusal, onClose }: { refusal: Refusal | null; onClose: () => void }) {
  const titleId = useId();
  const lines = refusal ? badLines(refusal.check) : [];
  return (
    <Modal
      open={refusal !== null}
      onClose={onClose}
      labelledBy={titleId}
      className="modal modal-bottom sm:modal-middle"
    >
      <div className="modal-box flex flex-col gap-3" data-testid="order-again-refused">
        <h2 id={titleId} className="text-lg font-bold">
          Nothing was added to your cart
        </h2>
        <p>
          {refusal?.label}: {lines.length} {lines.length === 1 ? 'part' : 'parts'} cannot be ordered as before, so none
          went in. Your cart is unchanged.
        </p>
        <ul className="flex flex-col gap-2">
          {lines.map((line) => (
            <li key={line.line} className="rounded-box bg-base-200 p-3 [overflow-wrap:anywhere]">
              <p className="font-semibold">
                {lineName(line)} ({line.quantity})
              </p>
              <div className="text-sm text-red-800">
                <LineProblem line={line} />
              </div>
            </li>
          ))}
        </ul>
        <div className="modal-action mt-0">
          <button type="button" className="btn" onClick={onClose} data-autofocus>
            Close
          </button>
        </div>
      </div>
    </Modal>
  );
}
