import { AdminPagination } from '../../components/AdminPagination';
import { formatDollars } from '@partsyard/common';
import { useApolloClient } from '@apollo/client';
import { Formik, type FormikHelpers } from 'formik';
import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { BusyButton } from '../../components/BusyButton';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { Cell, StackedTable } from '../../components/StackedTable';
import {
  PartBySkuDocument,
  useCompanyPriceListQuery,
  useRemoveCompanyPartPriceMutation,
  useSetCompanyPartPriceMutation,
  useSetCompanyPercentOffMutation,
  type PartBySkuQuery,
  type PartBySkuQueryVariables,
} from '../../generated/companies';
import { errorMessage, fieldErrors } from '../../lib/apollo';

/**
 * A company's price list, for the shop's admins (issue 35 point 3): a percentage off the list price, and fixed
 * unit prices for some parts with their own quantity breaks. Members are charged the lower of the list price and
 * the company's at each quantity (common/pricing.ts `buyerPrice`); the server checks every value.
 */

export const companyPriceTexts = {
  skuRequired: 'Give the part’s SKU (our own number, as on its page)',
  noSuchSku: 'No part has this SKU: check it on the part’s page',
  breaksFormat: 'Write each break as “units at price”, separated by commas: for example 20 at 8.50, 50 at 8.00',
  priceRequired: 'Give the company’s unit price in dollars, for example 9.50',
  percentNumber: 'Give a number, for example 12.5, or leave it empty for none',
} as const;

const pageSize = 50;

/** "20 at 8.50, 50 at 8" as breaks, or null when it is not written so. Empty: no breaks. */
export function parseBreaks(text: string): { minUnits: number; price: number }[] | null {
  const parts = text
    .split(/[,;\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const breaks: { minUnits: number; price: number }[] = [];
  for (const part of parts) {
    const match = /^(\d+)\s*(?:\+\s*)?(?:at|@|:)\s*\$?(\d+(?:\.\d+)?)$/i.exec(part);
    if (!match) return null;
    breaks.push({ minUnits: Number(match[1]), price: Number(match[2]) });
  }
  return breaks;
}

/** Breaks as the form writes them. */
export const breaksText = (tiers: readonly { minUnits: number; price: number }[]) =>
  tiers.map((t) => `${t.minUnits} at ${t.price.toFixed(2)}`).join(', ');

/** The server's messages under the form's fields: a break's (`priceTiers.1.price`) under the breaks. */
function formErrors(e: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, message] of Object.entries(fieldErrors(e))) {
    const field = key.startsWith('priceTiers') ? 'breaks' : key === 'partId' ? 'sku' : key;
    const at = /^priceTiers\.(\d+)/.exec(key);
    const said = at ? `Break ${Number(at[1]) + 1}: ${message}` : message;
    errors[field] = errors[field] ? `${errors[field]}; ${said}` : said;
  }
  return errors;
}

interface PercentValues {
  percentOff: string;
}

/** What the page checks before sending a percentage (the server checks the rest). */
export function percentErrors(values: PercentValues): Record<string, string> {
  const text = values.percentOff.trim();
  return text !== '' && !Number.isFinite(Number(text)) ? { percentOff: companyPriceTexts.percentNumber } : {};
}

interface PartPriceValues {
  sku: string;
  price: string;
  breaks: string;
}

/** What the page checks before sending a part's price (the server checks the rest: the price's and breaks' rules). */
export function partPriceErrors(values: PartPriceValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.sku.trim()) errors.sku = companyPriceTexts.skuRequired;
  const price = values.price.trim();
  if (price === '' || !Number.isFinite(Number(price))) errors.price = companyPriceTexts.priceRequired;
  if (parseBreaks(values.breaks) === null) errors.breaks = companyPriceTexts.breaksFormat;
  return errors;
}

export function CompanyPriceList({ companyId }: { companyId: string }) {
  const [offset, setOffset] = useState(0);
  const client = useApolloClient();
  const { data, loading, error, refetch } = useCompanyPriceListQuery({
    variables: { id: companyId, offset, limit: pageSize },
    fetchPolicy: 'cache-and-network',
  });
  const [setPercentOff] = useSetCompanyPercentOffMutation();
  const [setPartPrice] = useSetCompanyPartPriceMutation();
  const [removePartPrice, { loading: removing }] = useRemoveCompanyPartPriceMutation();
  const list = data?.companyPriceList;

  const savePercent = async (values: PercentValues, helpers: FormikHelpers<PercentValues>) => {
    const text = values.percentOff.trim();
    const percentOff = text === '' ? null : Number(text);
    try {
      await setPercentOff({ variables: { id: companyId, percentOff } });
      await refetch();
      toast.success(percentOff === null ? 'No percentage off any more.' : `${percentOff} % off the list price saved.`);
    } catch (e) {
      const fields = formErrors(e);
      if (Object.keys(fields).length) helpers.setErrors(fields);
      else toast.error(errorMessage(e));
    }
  };

  const savePartPrice = async (values: PartPriceValues, helpers: FormikHelpers<PartPriceValues>) => {
    const sku = values.sku.trim();
    const price = Number(values.price.trim());
    const breaks = parseBreaks(values.breaks) ?? [];
    try {
      const found = await client.query<PartBySkuQuery, PartBySkuQueryVariables>({
        query: PartBySkuDocument,
        variables: { number: sku },
        fetchPolicy: 'network-only',
      });
      const part = found.data?.partsByNumber.find((hit) => hit.part.sku.toLowerCase() === sku.toLowerCase())?.part;
      if (!part) {
        helpers.setErrors({ sku: companyPriceTexts.noSuchSku });
        return;
      }
      await setPartPrice({ variables: { id: companyId, partId: part.id, price, priceTiers: breaks } });
      await refetch();
      helpers.resetForm();
      toast.success(`Company price for ${part.sku} saved.`);
    } catch (e) {
      const fields = formErrors(e);
      if (Object.keys(fields).length) helpers.setErrors(fields);
      else toast.error(errorMessage(e));
    }
  };

  const remove = async (partId: string, sku: string) => {
    try {
      await removePartPrice({ variables: { id: companyId, partId } });
      await refetch();
      toast.success(`Company price for ${sku} removed: the list price applies.`);
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  if (error && !list)
    return (
      <p role="alert" className="text-red-600">
        {errorMessage(error)}
      </p>
    );

  return (
    <div className="flex flex-col gap-6" data-testid="company-price-list">
      <p className="text-sm text-gray-700">
        The company’s members pay the lower of the list price and the company price at each quantity.
      </p>
      <Formik<PercentValues>
        initialValues={{
          percentOff: list?.percentOff === null || list?.percentOff === undefined ? '' : String(list.percentOff),
        }}
        enableReinitialize
        validate={percentErrors}
        onSubmit={savePercent}
      >
        {({ isSubmitting }) => (
          <ShopForm
            idPrefix="percent-off"
            className="grid gap-3 sm:grid-cols-[16rem_auto] sm:items-end"
            aria-label="Percentage off"
          >
            <FormField name="percentOff" label="Percentage off the list price" inputMode="decimal" placeholder="None" />
            <BusyButton className="btn btn-outline btn-primary justify-self-start" busy={isSubmitting}>
              Save percentage
            </BusyButton>
          </ShopForm>
        )}
      </Formik>

      <Formik<PartPriceValues>
        initialValues={{ sku: '', price: '', breaks: '' }}
        validate={partPriceErrors}
        onSubmit={savePartPrice}
      >
        {({ isSubmitting }) => (
          <ShopForm idPrefix="part-price" className="grid gap-3 sm:grid-cols-3" aria-label="Set a part’s company price">
            <FormField name="sku" label="Part SKU" autoComplete="off" />
            <FormField name="price" label="Company unit price ($)" inputMode="decimal" />
            <FormField name="breaks" label="Quantity breaks (optional)" placeholder="20 at 8.50, 50 at 8.00" />
            <BusyButton className="btn btn-outline btn-primary justify-self-start sm:col-span-3" busy={isSubmitting}>
              Save part price
            </BusyButton>
          </ShopForm>
        )}
      </Formik>

      {loading && !list ? (
        <span className="loading loading-dots loading-sm" aria-label="Loading" />
      ) : !list?.items.length ? (
        <p className="text-sm text-gray-700">No fixed part prices yet.</p>
      ) : (
        <>
          <StackedTable>
            <thead>
              <tr>
                <th>SKU</th>
                <th>Part</th>
                <th>List price</th>
                <th>Company price</th>
                <th>Quantity breaks</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((item) => (
                <tr key={item.part.id} data-testid="company-price-row">
                  <Cell label="SKU">{item.part.sku}</Cell>
                  <Cell label="Part" className="[overflow-wrap:anywhere]">
                    {item.part.name}
                  </Cell>
                  <Cell label="List price">{formatDollars(item.part.price)}</Cell>
                  <Cell label="Company price">{formatDollars(item.price)}</Cell>
                  <Cell label="Quantity breaks">{item.priceTiers.length ? breaksText(item.priceTiers) : 'None'}</Cell>
                  <Cell label="">
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm text-red-700"
                      disabled={removing}
                      onClick={() => void remove(item.part.id, item.part.sku)}
                    >
                      Remove<span className="sr-only"> the company price of {item.part.sku}</span>
                    </button>
                  </Cell>
                </tr>
              ))}
            </tbody>
          </StackedTable>
          <AdminPagination
            page={Math.floor(offset / pageSize) + 1}
            pageSize={pageSize}
            total={list.total}
            onPage={(n) => setOffset((n - 1) * pageSize)}
            label="company prices"
          />
        </>
      )}
    </div>
  );
}
