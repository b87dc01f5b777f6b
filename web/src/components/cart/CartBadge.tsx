import { Link } from 'react-router-dom';
import { useCartCount } from '../../lib/cart/useCartCount';

/** The header's cart link: how many parts (lines) the cart holds, in its accessible name too. */
export function CartBadge() {
  const count = useCartCount();
  const label = `Cart, ${count} ${count === 1 ? 'part' : 'parts'}`;
  return (
    <Link to="/cart" className="btn btn-ghost btn-circle" aria-label={label} title={label} data-testid="cart-badge">
      <span className="indicator">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-6 w-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path
            d="M3 3h2l2.4 12.2a2 2 0 0 0 2 1.6h8.2a2 2 0 0 0 2-1.6L21 7H6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
          <circle cx="10" cy="20.5" r="1.3" />
          <circle cx="17" cy="20.5" r="1.3" />
        </svg>
        {count > 0 && (
          <span className="indicator-item badge badge-sm badge-primary" data-testid="cart-count" aria-hidden="true">
            {count}
          </span>
        )}
      </span>
    </Link>
  );
}
