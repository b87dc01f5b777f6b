import { Link } from 'react-router-dom';

/** A helmet, drawn here (no remote images). */
const helmet = (
  <svg viewBox="0 0 200 160" className="h-40 w-52 drop-shadow-xl sm:h-48 sm:w-60" aria-hidden="true">
    <path d="M20 110c0-55 38-95 90-95 44 0 75 30 75 72v23H20z" fill="#111827" />
    <path d="M110 15c44 0 75 30 75 72v8h-70c-10 0-16-8-14-18l9-62z" fill="#dc2626" />
    <path d="M118 58h62c3 9 5 18 5 29h-72c-6 0-9-5-7-10l4-12c1-4 4-7 8-7z" fill="#e5e7eb" opacity="0.9" />
    <rect x="14" y="108" width="176" height="16" rx="8" fill="#374151" />
    <path
      d="M40 70c10-25 30-40 55-44"
      stroke="#f9fafb"
      strokeWidth="5"
      strokeLinecap="round"
      fill="none"
      opacity="0.5"
    />
  </svg>
);

/** The promo banner: the spec's offer text, kept word for word across its three visual lines. */
export function PromoBanner() {
  return (
    <section aria-label="Promotion" className="mx-auto max-w-7xl px-4 py-16">
      <div className="relative overflow-hidden rounded-box bg-[linear-gradient(110deg,#7f1d1d_0%,#dc2626_55%,#f59e0b_130%)] px-8 py-12 text-white shadow-xl sm:px-14">
        <div
          className="pointer-events-none absolute -top-24 -right-24 h-72 w-72 rounded-full bg-white/10"
          aria-hidden="true"
        />
        <div className="relative flex flex-col items-center gap-8 text-center md:flex-row md:justify-between md:text-left">
          <div>
            <h2 className="flex flex-col gap-2">
              <span className="text-sm font-semibold tracking-[0.25em] text-amber-200 uppercase">
                Limited time offer,{' '}
              </span>
              <span className="text-4xl font-extrabold sm:text-5xl">Get Your helmet, </span>
              <span className="text-xl font-semibold sm:text-2xl">
                <span className="text-amber-300">30% Discount</span> On preorders
              </span>
            </h2>
            <Link to="/parts" className="btn mt-8 border-0 bg-white text-red-700 hover:bg-amber-100">
              Preorder now
            </Link>
          </div>
          {helmet}
        </div>
      </div>
    </section>
  );
}
