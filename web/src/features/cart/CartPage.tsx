import { checkoutSchema, formatDollars, truncate, truncation } from '@partsyard/common';
import { Formik, type FormikHelpers } from 'formik';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { BusyButton } from '../../components/BusyButton';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { PartImage } from '../../components/PartImage';
import { AddToListButton } from '../../components/lists/AddToList';
import { Spinner } from '../../components/Spinner';
import { useCheckoutMutation, usePartQuery, type PartFieldsFragment } from '../../generated/graphql';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { useAuth } from '../../lib/auth';
import { PriceBreaks } from '../../components/cart/PriceBreaks';
import { CompanyPriceMark, companyPriceFor, MyPricesProvider, useProvidedPrices } from '../../lib/companyPrices';
import { amountProblem, useCart, type CartLineView, type CartState } from '../../lib/cart/useCart';
import { visitorCart } from '../../lib/cart/visitorCart';

/** A visitor's line keeps the part as it was when added: the page asks the server for it now. */
function FreshPart({ part }: { part: PartFieldsFragment }) {
  const { data } = usePartQuery({ variables: { id: part.id }, fetchPolicy: 'network-only' });
  const now = data?.part;
  useEffect(() => {
    if (!now) return;
    const line = visitorCart.lines().find((l) => l.partId === part.id);
    if (line && JSON.stringify(line.part) !== JSON.stringify(now)) visitorCart.set({ ...line, part: now });
  }, [now, part.id]);
  return null;
}

/** One line: the part, an amount stepper (whole packs), the unit and line prices, its problems, Remove. */
function Line({ line, cart, serverError }: { line: CartLineView; cart: CartState; serverError?: string }) {
  const { part } = line;
  const book = useProvidedPrices();
  const [value, setValue] = useState(String(line.amount));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(String(line.amount)), [line.amount]);
  const step = Math.max(1, part.packSize);
  const id = `amount-${part.id}`;

  const commit = async (amount: number) => {
    setValue(String(amount));
    const why = amountProblem(part, amount);
    setProblem(why);
    if (why || amount === line.amount) return;
    setBusy(true);
    try {
      await cart.setAmount(part, amount);
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await cart.remove(part.id);
      toast.success(`Removed ${part.name} from your cart.`);
    } catch (e) {
      toast.error(errorMessage(e));
      setBusy(false);
    }
  };
  const said = [problem, serverError, line.problem, line.priceChange].filter(
    (m, i, all): m is string => Boolean(m) && all.indexOf(m) === i,
  );

  return (
    <li className="card card-border border-base-300 bg-base-100" data-testid="cart-line">
      {cart.kind === 'visitor' && <FreshPart part={part} />}
      <div className="grid gap-3 p-4 sm:grid-cols-[6rem_minmax(0,1fr)_auto] sm:items-start">
        <PartImage
          src={part.image}
          alt=""
          width={96}
          height={72}
          className="h-18 w-24 shrink-0 rounded-box bg-base-200 object-contain"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <h2 className="text-lg font-semibold [overflow-wrap:anywhere]" title={part.name}>
            <Link to={`/parts/${part.id}`} className="link-hover">
              {truncate(part.name, truncation.cardName)}
            </Link>
          </h2>
          <p className="text-sm text-gray-700">
            {formatDollars(line.unitPrice)} per unit
            {line.companyPriced && (
              <>
                {' '}
                <CompanyPriceMark />
              </>
            )}{' '}
            · Minimum Order {part.minOrder} · Available {part.available}
          </p>
          <PriceBreaks part={part} amount={line.amount} company={companyPriceFor(book, part.id)} />
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={id} className="text-sm font-semibold">
              Amount
            </label>
            <div className="join">
              <button
                type="button"
                className="btn join-item btn-sm"
                aria-label={`${step} fewer of ${part.name}`}
                disabled={busy}
                onClick={() => void commit(Math.max(0, (Number(value) || 0) - step))}
              >
                −
              </button>
              <input
                id={id}
                type="number"
                inputMode="numeric"
                step={step}
                className="input join-item input-sm w-24 text-center"
                value={value}
                aria-invalid={said.length && (problem || line.problem) ? true : undefined}
                aria-describedby={said.length ? `${id}-problems` : undefined}
                onChange={(event) => setValue(event.target.value)}
                onBlur={() => void commit(Number(value))}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    void commit(Number(value));
                  }
                }}
              />
              <button
                type="button"
                className="btn join-item btn-sm"
                aria-label={`${step} more of ${part.name}`}
                disabled={busy}
                onClick={() => void commit((Number(value) || 0) + step)}
              >
                +
              </button>
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-sm text-red-700"
              disabled={busy}
              onClick={() => void remove()}
            >
              Remove<span className="sr-only"> {part.name}</span>
            </button>
          </div>
          {said.length > 0 && (
            <ul id={`${id}-problems`} className="flex flex-col gap-1 text-sm text-red-700" data-testid="line-problem">
              {said.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
        </div>
        <p className="text-right text-lg font-bold whitespace-nowrap sm:min-w-28" data-testid="line-total">
          <span className="sr-only">Line total </span>
          {formatDollars(line.lineTotal)}
        </p>
      </div>
    </li>
  );
}

interface CheckoutValues {
  name: string;
  phone: string;
  address: string;
}

/** The checkout form: the purchase form's details, then every line is ordered at once and paid once. */
function CheckoutForm({
  cart,
  onLineErrors,
}: {
  cart: CartState;
  onLineErrors: (errors: Record<string, string>) => void;
}) {
  const { user } = useAuth();
  const navigate = useNavigate();
  // The checkout emptied the cart on the server: the badge and this page ask for it again.
  const [checkout] = useCheckoutMutation({ refetchQueries: ['Cart'] });
  const [refusal, setRefusal] = useState<string | null>(null);
  const initialValues = useMemo(() => ({ name: user?.displayName ?? '', phone: '', address: '' }), [user?.displayName]);
  const submit = async (values: CheckoutValues, helpers: FormikHelpers<CheckoutValues>) => {
    setRefusal(null);
    onLineErrors({});
    try {
      const { data } = await checkout({
        variables: {
          input: {
            name: values.name.trim(),
            phone: values.phone.trim(),
            address: values.address.trim(),
            expectedTotal: cart.total,
          },
        },
      });
      const first = data?.checkout.orders[0];
      toast.success(
        first?.status === 'AWAITING_APPROVAL'
          ? 'Order placed. It is above your limit per order, so your company’s admins are asked to approve it.'
          : 'Successfully placed order.',
      );
      if (first) void navigate(`/payment/${first.id}`);
    } catch (e) {
      const fields = fieldErrors(e);
      const lines = Object.fromEntries(
        Object.entries(fields)
          .filter(([k]) => k.startsWith('lines.'))
          .map(([k, v]) => [k.slice('lines.'.length), v]),
      );
      const contact = Object.fromEntries(Object.entries(fields).filter(([k]) => !k.startsWith('lines.')));
      if (Object.keys(contact).length) helpers.setErrors(contact);
      onLineErrors(lines);
      setRefusal(errorMessage(e));
    }
  };
  return (
    <Formik<CheckoutValues>
      initialValues={initialValues}
      enableReinitialize
      validationSchema={checkoutSchema}
      onSubmit={submit}
    >
      {({ isSubmitting }) => (
        <ShopForm className="flex flex-col gap-3" aria-label="Checkout" idPrefix="checkout">
          <FormField name="name" label="Name" autoComplete="name" />
          <FormField name="phone" label="Phone" type="tel" placeholder="01XXXXXXXXX" autoComplete="tel" />
          <FormField name="address" label="Address" as="textarea" rows={2} autoComplete="street-address" />
          {refusal && (
            <p role="alert" className="text-sm text-red-700" data-testid="checkout-refused">
              {refusal}
            </p>
          )}
          <BusyButton className="btn btn-primary" busy={isSubmitting} disabled={!cart.lines.length}>
            Check out and pay {formatDollars(cart.total)}
          </BusyButton>
          <p className="text-xs text-gray-700">
            Every part is ordered at once, or none is; you then pay all of them with one card payment.
          </p>
        </ShopForm>
      )}
    </Formik>
  );
}

/** /cart: the lines, their totals and problems, the total, and checkout (signed in) or sign-in (visitor). */
export default function CartPage() {
  const cart = useCart();
  const location = useLocation();
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});
  if (cart.loading) return <Spinner centered />;
  const count = cart.lines.length;
  return (
    <section className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold">Your cart</h1>
      {count === 0 ? (
        <div className="flex flex-col items-start gap-3 rounded-box bg-base-200 p-6">
          <p>Your cart is empty.</p>
          <Link to="/parts" className="btn btn-primary btn-sm">
            Browse parts
          </Link>
        </div>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
          <MyPricesProvider partIds={cart.lines.map((line) => line.part.id)}>
            <ul className="flex flex-col gap-3" aria-label="Cart lines">
              {cart.lines.map((line) => (
                <Line key={line.part.id} line={line} cart={cart} serverError={lineErrors[line.part.id]} />
              ))}
            </ul>
          </MyPricesProvider>
          <aside className="card self-start bg-base-100 shadow-md" aria-label="Order summary">
            <div className="card-body gap-3">
              <h2 className="card-title">Summary</h2>
              <p className="flex justify-between text-sm">
                <span>
                  {count} {count === 1 ? 'part' : 'parts'}, {cart.units} units
                </span>
              </p>
              <p className="flex items-center justify-between rounded-box bg-base-200 px-4 py-3">
                <span className="text-gray-700">Total</span>
                <span className="text-xl font-bold" data-testid="cart-total">
                  {formatDollars(cart.total)}
                </span>
              </p>
              {cart.problem && (
                <p role="alert" className="text-sm text-red-700" data-testid="cart-problem">
                  {cart.problem}
                </p>
              )}
              {cart.kind === 'server' && (
                <AddToListButton source={{ kind: 'cart' }} what="(the whole cart)" className="btn btn-outline" />
              )}
              {cart.kind === 'server' ? (
                <CheckoutForm cart={cart} onLineErrors={setLineErrors} />
              ) : (
                <div className="flex flex-col gap-2">
                  <p className="text-sm">Log in to check out: your cart comes with you.</p>
                  <Link to="/login" state={{ from: location }} className="btn btn-primary">
                    Log in to check out
                  </Link>
                </div>
              )}
            </div>
          </aside>
        </div>
      )}
    </section>
  );
}
