import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import BikePage from '../../src/features/parts/BikePage';
import CatalogPage from '../../src/features/parts/CatalogPage';
import CategoryPage from '../../src/features/parts/CategoryPage';
import {
  BrandBySlugDocument,
  CatalogListDocument,
  CategoryBySlugDocument,
  VehicleBySlugsDocument,
  type CatalogFilter,
  type CatalogListQuery,
} from '../../src/generated/graphql';
import { GarageContext, type GarageContextValue } from '../../src/lib/garage/garage';
import { part, renderStorefront } from './renderStorefront';

/** As the API answers (with `__typename`s, which the generated types leave out). */
type Answer<T> = { [K in keyof T]?: unknown } & { __typename?: string };
type Item = Answer<CatalogListQuery['catalog']['items'][number]>;
type Facets = Answer<CatalogListQuery['catalog']['facets']>;
const count = (n: number, text = n.toLocaleString('en-US')) => ({
  __typename: 'CatalogCount' as const,
  count: n,
  text,
});
const noFacets = (total: number): Facets => ({
  __typename: 'CatalogFacets',
  categories: [],
  brands: [],
  inStock: count(total),
  complete: true,
});
/** A listed part: `n` numbers it; `over` says what the catalog says of it (universal, fit, reason...). */
const item = (n: number, over: Item = {}): Item => ({
  __typename: 'CatalogItem',
  part: part(n),
  universal: false,
  fit: null,
  match: null,
  reason: null,
  replaces: null,
  ...over,
});

/** The CatalogList answer for `variables`: parts numbered from offset + 1, `total` in all (or the items given). */
const catalog = (
  variables: { filter: CatalogFilter; offset: number; limit: number },
  total: number,
  extra: { items?: Item[]; facets?: Facets; vehicle?: { id: string; name: string } } = {},
) => {
  const n = Math.max(0, Math.min(variables.limit, total - variables.offset));
  const items = extra.items ?? Array.from({ length: n }, (_, i) => item(variables.offset + i + 1));
  return {
    request: { query: CatalogListDocument, variables },
    result: {
      data: {
        catalog: {
          __typename: 'CatalogPage',
          items,
          total,
          totalIsLowerBound: false,
          totalText: total.toLocaleString('en-US'),
          offset: variables.offset,
          limit: variables.limit,
          vehicle: extra.vehicle ? { __typename: 'Vehicle', ...extra.vehicle } : null,
          limitedToVehicle: !!extra.vehicle,
          search: variables.filter.search ?? null,
          facets: extra.facets ?? noFacets(total),
        },
      },
    },
  };
};
const first = (filter: CatalogFilter = {}) => ({ filter, offset: 0, limit: 20 });

const location = () => screen.getByTestId('location').textContent;
const pagination = () => screen.getByRole('navigation', { name: 'Pagination' });
const filters = () => screen.getByRole('complementary', { name: 'Filters' });

const crf = { id: 'vehicle-crf-2019', name: '2019 Honda CRF450R' };
/** My garage as the app gives it, with `current` as the current bike. */
function garageWith(current: { id: string; name: string } | null, bikes = current ? [current] : []) {
  const garage: GarageContextValue = {
    kind: 'visitor',
    loading: false,
    bikes,
    current,
    add: jest.fn(async () => {}),
    remove: jest.fn(async () => {}),
    setCurrent: jest.fn(async () => {}),
    openGarage: jest.fn(),
    prepareGarage: jest.fn(),
  };
  const wrap = (page: ReactElement) => <GarageContext.Provider value={garage}>{page}</GarageContext.Provider>;
  return { garage, wrap };
}

describe('the catalog at /parts', () => {
  // jsdom does not scroll; a new page scrolls to the top.
  beforeAll(() => {
    window.scrollTo = jest.fn();
  });
  afterEach(() => jest.useRealTimers());
  it("asks for the first 20 parts, shows 'All Parts', the count and page numbers", async () => {
    renderStorefront(<CatalogPage />, [catalog(first(), 45)], '/parts');
    expect(screen.getByRole('heading', { name: 'All Parts', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Showing 1–20 of 45 parts')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Purchase/ })).toHaveLength(20);
    expect(within(pagination()).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(within(pagination()).getByRole('button', { name: 'Page 3' })).toBeInTheDocument();
    expect(within(pagination()).getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it('Next and the page numbers ask for the following 20 and put the page in the URL', async () => {
    const user = userEvent.setup();
    renderStorefront(
      <CatalogPage />,
      [
        catalog(first(), 45),
        catalog({ filter: {}, offset: 20, limit: 20 }, 45),
        catalog({ filter: {}, offset: 40, limit: 20 }, 45),
      ],
      '/parts',
    );
    await screen.findByText('Showing 1–20 of 45 parts');
    await user.click(within(pagination()).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 21–40 of 45 parts')).toBeInTheDocument();
    expect(location()).toBe('/parts?page=2');
    expect(screen.getByRole('heading', { name: 'Test Part 21' })).toBeInTheDocument();
    await user.click(within(pagination()).getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Showing 41–45 of 45 parts')).toBeInTheDocument();
    expect(location()).toBe('/parts?page=3');
    expect(within(pagination()).getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('searches once the typing pauses, from page 1, with the search in the URL', async () => {
    // Fake time: on a loaded machine real keystrokes can come more than the pause apart, and each
    // would then ask for a partial word. Here time moves only as user-event and waitFor move it.
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderStorefront(
      <CatalogPage />,
      [catalog({ filter: {}, offset: 20, limit: 20 }, 45), catalog(first({ search: 'chain' }), 1)],
      '/parts?page=2',
    );
    await screen.findByText('Showing 21–40 of 45 parts');
    // Only the finished word is asked for: a query per keystroke would find no mocked answer and fail.
    await user.type(screen.getByRole('searchbox', { name: 'Search parts' }), 'chain');
    expect(await screen.findByText('Showing 1–1 of 1 part')).toBeInTheDocument();
    expect(location()).toBe('/parts?q=chain');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens a linked view: the search box and the page come from ?q=&page=', async () => {
    renderStorefront(
      <CatalogPage />,
      [catalog({ filter: { search: 'brake' }, offset: 20, limit: 20 }, 30)],
      '/parts?q=brake&page=2',
    );
    expect(screen.getByRole('searchbox', { name: 'Search parts' })).toHaveValue('brake');
    expect(await screen.findByText('Showing 21–30 of 30 parts')).toBeInTheDocument();
  });

  it("says 'No parts match your search.' when nothing matches", async () => {
    renderStorefront(<CatalogPage />, [catalog(first({ search: 'zzz' }), 0)], '/parts?q=zzz');
    expect(await screen.findByText('No parts match your search.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Clear the search' })).toBeInTheDocument();
  });

  it('shows the reason in an alert when the catalog cannot be read', async () => {
    renderStorefront(
      <CatalogPage />,
      [{ request: { query: CatalogListDocument, variables: first() }, error: new Error('The shop is down') }],
      '/parts',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach the shop');
  });

  it('with a current bike lists what fits it and universal parts, says so, labels them, and links to all parts (?bike=all)', async () => {
    const user = userEvent.setup();
    const { wrap } = garageWith(crf);
    renderStorefront(
      wrap(<CatalogPage />),
      [
        catalog(first({ vehicleId: crf.id }), 3, {
          vehicle: crf,
          items: [
            item(1, { fit: { __typename: 'Fits', verdict: 'FITS', message: 'Fits your 2019 Honda CRF450R' } }),
            item(2, {
              fit: {
                __typename: 'Fits',
                verdict: 'FITS_WITH_NOTE',
                message: 'Fits your 2019 Honda CRF450R with a note: cut to 114 links',
              },
            }),
            item(3, {
              universal: true,
              fit: { __typename: 'Fits', verdict: 'FITS', message: 'Fits your 2019 Honda CRF450R' },
            }),
          ],
        }),
        catalog(first(), 45),
      ],
      '/parts',
    );
    expect(await screen.findByText('Showing 1–3 of 3 parts')).toBeInTheDocument();
    expect(screen.getByTestId('bike-filter')).toHaveTextContent('Parts that fit your 2019 Honda CRF450R');
    const card = (n: number) =>
      screen.getByRole('heading', { name: `Test Part ${n}` }).closest('article') as HTMLElement;
    expect(within(card(3)).getByText('Universal')).toBeInTheDocument();
    expect(within(card(1)).queryByText('Universal')).not.toBeInTheDocument();
    // A plain fit says nothing more; a fit with a note says the note.
    expect(within(card(1)).queryByTestId('catalog-item-notes')).not.toBeInTheDocument();
    expect(within(card(2)).getByText(/with a note: cut to 114 links/)).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'See all parts' }));
    expect(location()).toBe('/parts?bike=all');
    expect(await screen.findByText('Showing 1–20 of 45 parts')).toBeInTheDocument();
    expect(screen.getByTestId('bike-filter')).toHaveTextContent(
      'all parts, not only those that fit your 2019 Honda CRF450R',
    );
    expect(screen.getByRole('link', { name: 'Only parts that fit your 2019 Honda CRF450R' })).toBeInTheDocument();
  });

  it('shows facet counts as the server writes them, and each facet is a filter kept in the URL', async () => {
    const user = userEvent.setup();
    const facets: Facets = {
      __typename: 'CatalogFacets',
      categories: [
        {
          __typename: 'CategoryFacet',
          category: { __typename: 'Category', id: 'cat-brakes', name: 'Brakes', slug: 'brakes' },
          count: count(1000, '1,000+'),
        },
      ],
      brands: [
        {
          __typename: 'BrandFacet',
          brand: { __typename: 'Brand', id: 'brand-ebc', name: 'EBC', slug: 'ebc' },
          count: count(12),
        },
      ],
      inStock: count(7),
      complete: false,
    };
    const brakes = {
      __typename: 'Category' as const,
      id: 'cat-brakes',
      name: 'Brakes',
      slug: 'brakes',
      parent: null,
    };
    renderStorefront(
      <CatalogPage />,
      [
        catalog(first(), 45, { facets }),
        {
          request: { query: CategoryBySlugDocument, variables: { slug: 'brakes' } },
          result: { data: { category: brakes } },
        },
        catalog(first({ categoryId: 'cat-brakes' }), 30, { facets }),
        {
          request: { query: BrandBySlugDocument, variables: { slug: 'ebc' } },
          result: { data: { brand: { __typename: 'Brand', id: 'brand-ebc', name: 'EBC', slug: 'ebc' } } },
        },
        catalog(first({ categoryId: 'cat-brakes', brandId: 'brand-ebc' }), 12, { facets }),
        catalog(first({ categoryId: 'cat-brakes', brandId: 'brand-ebc', inStock: true }), 7, { facets }),
      ],
      '/parts',
    );
    await screen.findByText('Showing 1–20 of 45 parts');
    expect(within(filters()).getByRole('link', { name: 'Brakes 1,000+ parts' })).toBeInTheDocument();
    expect(within(filters()).getByRole('checkbox', { name: /In stock only/ })).not.toBeChecked();
    expect(within(filters()).getByText('Counts are of the first 1,000 parts listed.')).toBeInTheDocument();

    await user.click(within(filters()).getByRole('link', { name: 'Brakes 1,000+ parts' }));
    expect(location()).toBe('/parts?category=brakes');
    expect(await screen.findByText('Showing 1–20 of 30 parts')).toBeInTheDocument();
    expect(within(filters()).getByRole('link', { name: /All categories/ })).toBeInTheDocument();

    await user.click(within(filters()).getByRole('link', { name: 'EBC 12 parts' }));
    expect(location()).toBe('/parts?category=brakes&brand=ebc');
    expect(await screen.findByText('Showing 1–12 of 12 parts')).toBeInTheDocument();
    expect(within(filters()).getByRole('link', { name: 'EBC 12 parts' })).toHaveAttribute('aria-current', 'true');

    await user.click(within(filters()).getByRole('checkbox', { name: /In stock only/ }));
    expect(location()).toBe('/parts?category=brakes&brand=ebc&inStock=1');
    expect(await screen.findByText('Showing 1–7 of 7 parts')).toBeInTheDocument();
    expect(within(filters()).getByRole('checkbox', { name: /In stock only/ })).toBeChecked();
  });

  it('says why each search hit matched, and which replaced part it stands for', async () => {
    renderStorefront(
      <CatalogPage />,
      [
        catalog(first({ search: '06455-MEN-305' }), 1, {
          items: [
            item(1, {
              match: 'EXACT_NUMBER',
              reason: 'OEM number 06455-MEN-305, of PY-000015 (Old pads): replaced by PY-000001 (Test Part 1)',
              replaces: { __typename: 'Part', id: 'old-pads', name: 'Old pads' },
            }),
          ],
        }),
      ],
      '/parts?q=06455-MEN-305',
    );
    expect(await screen.findByText('Showing 1–1 of 1 part')).toBeInTheDocument();
    const notes = screen.getByTestId('catalog-item-notes');
    expect(notes).toHaveTextContent('Found by: OEM number 06455-MEN-305');
    expect(notes).toHaveTextContent('Replaces: Old pads');
  });

  it('on a phone the filters are behind a button that says whether they are open', async () => {
    const user = userEvent.setup();
    renderStorefront(<CatalogPage />, [catalog(first(), 3)], '/parts');
    await screen.findByText('Showing 1–3 of 3 parts');
    const toggle = screen.getByRole('button', { name: 'Show filters' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(filters()).toHaveClass('hidden');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
    expect(filters()).not.toHaveClass('hidden');
  });
});

describe('a category page at /categories/:slug', () => {
  it("is titled by the category's name, lists it with the current bike, and its sub-categories lead to their pages", async () => {
    const user = userEvent.setup();
    const { wrap } = garageWith(crf);
    const pads = { __typename: 'Category' as const, id: 'cat-pads', name: 'Brake pads', slug: 'brake-pads' };
    const brakes = {
      __typename: 'Category' as const,
      id: 'cat-brakes',
      name: 'Brakes',
      slug: 'brakes',
      parent: null,
    };
    renderStorefront(
      wrap(<CategoryPage />),
      [
        {
          request: { query: CategoryBySlugDocument, variables: { slug: 'brakes' } },
          result: { data: { category: brakes } },
        },
        catalog(first({ vehicleId: crf.id, categoryId: 'cat-brakes' }), 2, {
          vehicle: crf,
          facets: {
            ...noFacets(2),
            categories: [{ __typename: 'CategoryFacet', category: pads, count: count(2) }],
          },
        }),
      ],
      '/categories/brakes?brand=&q=',
      '/categories/:slug',
    );
    expect(await screen.findByRole('heading', { name: 'Brakes', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Brakes — PartsYard'));
    expect(await screen.findByText('Showing 1–2 of 2 parts')).toBeInTheDocument();
    expect(screen.getByTestId('bike-filter')).toHaveTextContent('Parts that fit your 2019 Honda CRF450R');
    expect(within(filters()).getByRole('link', { name: 'Brake pads 2 parts' })).toHaveAttribute(
      'href',
      '/categories/brake-pads',
    );
    await user.click(within(filters()).getByRole('link', { name: /All categories/ }));
    expect(location()).toBe('/parts');
  });

  it('says so when no category has that address', async () => {
    renderStorefront(
      <CategoryPage />,
      [
        {
          request: { query: CategoryBySlugDocument, variables: { slug: 'nope' } },
          result: { data: { category: null } },
        },
      ],
      '/categories/nope',
      '/categories/:slug',
    );
    expect(await screen.findByRole('heading', { name: 'No such category', level: 1 })).toBeInTheDocument();
  });
});

describe('a bike page at /bikes/:make/:model/:year', () => {
  const lookUp = (variables: Record<string, unknown>, vehicle: typeof crf | null) => ({
    request: { query: VehicleBySlugsDocument, variables },
    result: { data: { vehicleBySlugs: vehicle && { __typename: 'Vehicle', ...vehicle } } },
  });

  it('lists what fits that bike whatever the garage holds, is titled by it, and adds it to the garage', async () => {
    const user = userEvent.setup();
    const { garage, wrap } = garageWith({ id: 'other-bike', name: '2020 Yamaha YZ450F' });
    renderStorefront(
      wrap(<BikePage />),
      [
        lookUp({ make: 'honda', model: 'crf450r', year: 2019, variant: '' }, crf),
        catalog(first({ vehicleId: crf.id }), 4, { vehicle: crf }),
      ],
      '/bikes/honda/crf450r/2019',
      '/bikes/:make/:model/:year',
    );
    expect(
      await screen.findByRole('heading', { name: 'Parts for the 2019 Honda CRF450R', level: 1 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Parts for the 2019 Honda CRF450R — PartsYard'));
    expect(await screen.findByText('Showing 1–4 of 4 parts')).toBeInTheDocument();
    // The page's bike, not the garage's: no "fit your" line about the other one.
    expect(screen.queryByTestId('bike-filter')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add to my garage' }));
    expect(garage.add).toHaveBeenCalledWith(crf, { makeCurrent: true });
  });

  it('says so when no bike has that address', async () => {
    renderStorefront(
      <BikePage />,
      [lookUp({ make: 'honda', model: 'crf450r', year: 1999, variant: 'abs' }, null)],
      '/bikes/honda/crf450r/1999/abs',
      '/bikes/:make/:model/:year/:variant',
    );
    expect(await screen.findByRole('heading', { name: 'No such bike', level: 1 })).toBeInTheDocument();
  });
});
