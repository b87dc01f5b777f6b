import { dollarsToCents, formatDollars, purchaseSchema, unitPriceCents } from '@partsyard/common';
import { Formik, useFormikContext, type FormikHelpers } from 'formik';
import { useMemo, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useNavigate, useParams } from 'react-router-dom';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { PartNotFound, ShoppingFact, ShoppingPartSummary } from '../../components/ShoppingPartSummary';
import { Spinner } from '../../components/Spinner';
import { usePartQuery, usePlaceOrderMutation } from '../../generated/graphql';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { useAuth } from '../../lib/auth';
import { BusyButton } from '../../components/BusyButton';
import { PriceBreaks } from '../../components/cart/PriceBreaks';
import { pricedOf } from '../../lib/cart/priced';
import { companyPriceFor, useMyPrices, yourUnitPrice, YourPrice } from '../../lib/companyPrices';
import { amountProblem, useCart } from '../../lib/cart/useCart';
import type { PartFieldsFragment } from '../../generated/graphql';

/** Adds the form's amount to the cart instead of ordering it now (checked by the same rule, its message shown). */
function AddFormAmountToCart({ part }: { part: PartFieldsFragment }) {
  const { values, setFieldError, setFieldTouched } = useFormikContext<PurchaseValues>();
  const cart = useCart();
  const [busy, setBusy] = useState(false);
  const add = async () => {
    const amount = values.orderAmount === '' ? '' : Number(values.orderAmount);
    const problem = amountProblem(part, amount);
    if (problem) {
      await setFieldTouched('orderAmount', true, false);
      setFieldError('orderAmount', problem);
      return;
    }
    setBusy(true);
    try {
      await cart.add(part, Number(amount));
      toast.success(`Added ${Number(amount)} × ${part.name} to your cart.`);
    } catch (e) {
      setFieldError('orderAmount', errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <BusyButton type="button" className="btn btn-outline btn-primary" busy={busy} onClick={() => void add()}>
      Add to cart
    </BusyButton>
  );
}

interface PurchaseValues {
  name: string;
  email: string;
  phone: string;
  orderAmount: number | '';
  address: string;
}

/** Purchase form for one part (spec "Purchase page"): the shared purchase rules, the server's price and stock. */
export default function PurchasePage() {
  const { partId = '' } = useParams();
  const { user } = useAuth();
  // The success toast lives outside the router: its Pay now link navigates through the page's navigate.
  const navigate = useNavigate();
  const { data, loading, error, refetch } = usePartQuery({
    variables: { id: partId },
    fetchPolicy: 'cache-and-network',
  });
  const [placeOrder] = usePlaceOrderMutation();
  const part = data?.part;
  const myPrices = useMyPrices(part ? [part.id] : []);

  const initialValues = useMemo<PurchaseValues>(
    () => ({ name: user?.displayName ?? '', email: user?.email ?? '', phone: '', orderAmount: '', address: '' }),
    [user?.displayName, user?.email],
  );
  const schema = useMemo(
    () =>
      part
        ? purchaseSchema({
            minOrder: part.minOrder,
            available: part.available,
            priceCents: dollarsToCents(part.price),
            packSize: part.packSize,
          })
        : undefined,
    [part],
  );

  if (loading && !data) return <Spinner centered />;
  if (!part) return <PartNotFound error={error} backTo="/parts" backLabel="Browse parts" />;

  const submit = async (values: PurchaseValues, helpers: FormikHelpers<PurchaseValues>) => {
    try {
      const { data: placed } = await placeOrder({
        variables: {
          input: {
            partId: part.id,
            name: values.name.trim(),
            phone: values.phone.trim(),
            orderAmount: Number(values.orderAmount),
            address: values.address.trim(),
          },
        },
      });
      const orderId = placed?.placeOrder.id;
      const awaiting = placed?.placeOrder.status === 'AWAITING_APPROVAL';
      toast.success(
        <span>
          {awaiting
            ? 'Order placed. It is above your limit per order, so your company’s admins are asked to approve it: you can pay once it is approved.'
            : 'Successfully placed order.'}
          {orderId && !awaiting && (
            <>
              {' '}
              <a
                href={`/payment/${orderId}`}
                className="link font-semibold"
                onClick={(event) => {
                  event.preventDefault();
                  void navigate(`/payment/${orderId}`);
                }}
              >
                Pay now
              </a>
            </>
          )}
        </span>,
      );
      helpers.resetForm();
      await refetch();
    } catch (e) {
      const fields = fieldErrors(e);
      if (Object.keys(fields).length > 0) helpers.setErrors(fields);
      else toast.error(errorMessage(e));
    }
  };

  // Name is the signed-in user's; it can be typed only when the account has none.
  const nameKnown = Boolean(initialValues.name);

  return (
    <section className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-[2fr_3fr]">
      <ShoppingPartSummary image={part.image} name={part.name} className="self-start">
        <p className="text-sm text-gray-600">{part.description}</p>
        <p className="text-2xl font-bold text-primary" data-testid="unit-price">
          {formatDollars(part.price)}
          <span className="ml-1 text-sm font-normal text-gray-600">per unit</span>
        </p>
        <ShoppingFact label="Available">
          <span data-testid="available">{part.available}</span>
        </ShoppingFact>
        <ShoppingFact label="Minimum Order">
          <span data-testid="min-order">{part.minOrder}</span>
        </ShoppingFact>
      </ShoppingPartSummary>

      <div className="card bg-base-100 shadow-md">
        <div className="card-body">
          <h1 className="card-title text-2xl">Purchase</h1>
          <Formik<PurchaseValues>
            initialValues={initialValues}
            enableReinitialize
            validationSchema={schema}
            onSubmit={submit}
          >
            {({ values, isSubmitting }) => {
              const amount = Number(values.orderAmount);
              const total =
                values.orderAmount !== '' && Number.isInteger(amount) && amount > 0
                  ? ((yourUnitPrice(myPrices, part, amount) ?? unitPriceCents(pricedOf(part), amount)) * amount) / 100
                  : 0;
              return (
                <ShopForm className="flex flex-col gap-3">
                  <div className="grid gap-3 sm:grid-cols-2">
                    <FormField name="name" label="Name" readOnly={nameKnown} autoComplete="name" />
                    <FormField name="email" label="Email" type="email" readOnly />
                  </div>
                  <FormField name="phone" label="Phone" type="tel" placeholder="01XXXXXXXXX" autoComplete="tel" />
                  <FormField
                    name="orderAmount"
                    label="Order amount"
                    type="number"
                    placeholder={`At least ${part.minOrder}`}
                  />
                  <FormField name="address" label="Address" as="textarea" rows={3} autoComplete="street-address" />
                  <YourPrice part={part} amount={amount} book={myPrices} />
                  <PriceBreaks part={part} amount={amount} company={companyPriceFor(myPrices, part.id)} />
                  <p className="flex items-center justify-between rounded-box bg-base-200 px-4 py-3">
                    <span className="text-gray-600">Total price</span>
                    <span className="text-xl font-bold" data-testid="total-price">
                      {formatDollars(total)}
                    </span>
                  </p>
                  <div className="mt-2 grid gap-2 sm:grid-cols-2">
                    <BusyButton className="btn btn-primary" busy={isSubmitting}>
                      Place Order
                    </BusyButton>
                    <AddFormAmountToCart part={part} />
                  </div>
                </ShopForm>
              );
            }}
          </Formik>
        </div>
      </div>
    </section>
  );
}
