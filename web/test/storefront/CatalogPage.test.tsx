import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CatalogPage from '../../src/features/parts/CatalogPage';
import { CatalogDocument } from '../../src/generated/graphql';
import { part, renderStorefront } from './renderStorefront';

/** The Catalog answer for `variables`: parts numbered from offset + 1, `total` in all. */
const catalog = (variables: { search: string; offset: number; limit: number }, total: number) => {
  const count = Math.max(0, Math.min(variables.limit, total - variables.offset));
  const items = Array.from({ length: count }, (_, i) => part(variables.offset + i + 1));
  return {
    request: { query: CatalogDocument, variables },
    result: { data: { parts: { __typename: 'PartPage', items, total, ...variables } } },
  };
};

const location = () => screen.getByTestId('location').textContent;
const pagination = () => screen.getByRole('navigation', { name: 'Pagination' });

describe('the catalog at /parts', () => {
  // jsdom does not scroll; a new page scrolls to the top.
  beforeAll(() => {
    window.scrollTo = jest.fn();
  });
  afterEach(() => jest.useRealTimers());
  it("asks for the first 20 parts, shows 'All Parts', the count and page numbers", async () => {
    renderStorefront(<CatalogPage />, [catalog({ search: '', offset: 0, limit: 20 }, 45)], '/parts');
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
        catalog({ search: '', offset: 0, limit: 20 }, 45),
        catalog({ search: '', offset: 20, limit: 20 }, 45),
        catalog({ search: '', offset: 40, limit: 20 }, 45),
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
      [catalog({ search: '', offset: 20, limit: 20 }, 45), catalog({ search: 'chain', offset: 0, limit: 20 }, 1)],
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
      [catalog({ search: 'brake', offset: 20, limit: 20 }, 30)],
      '/parts?q=brake&page=2',
    );
    expect(screen.getByRole('searchbox', { name: 'Search parts' })).toHaveValue('brake');
    expect(await screen.findByText('Showing 21–30 of 30 parts')).toBeInTheDocument();
  });

  it("says 'No parts match your search.' when nothing matches", async () => {
    renderStorefront(<CatalogPage />, [catalog({ search: 'zzz', offset: 0, limit: 20 }, 0)], '/parts?q=zzz');
    expect(await screen.findByText('No parts match your search.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });
});
