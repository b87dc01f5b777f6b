import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { quickOrderMessages } from '@partsyard/common';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-hot-toast/headless';
import { Route, Routes } from 'react-router-dom';
import { Toasts } from '../../src/components/Toasts';
import { storageKey } from '../../src/features/quickOrder/gridRows';
import QuickOrderPage from '../../src/features/quickOrder/QuickOrderPage';
import {
  AddQuickOrderToCartDocument,
  QuickOrderCheckDocument,
  QuickOrderSavedListsDocument,
} from '../../src/generated/quickOrder';
import type { LineOutcome } from '../../src/features/quickOrder/checkResults';
import { useOptionalAuth } from '../../src/lib/auth';
import { TestRouter } from '../support/TestRouter';

/**
 * Issue 34 points 1 and 5 in the page: the grid from the keyboard alone (Enter adds a row, arrows move between rows in
 * the same column), a spreadsheet's selection pasted into a cell, the server's check shown on each row and tied to its
 * inputs, focus on the first row to fix, and the ready rows into the cart (the others left to fix).
 */

jest.mock('../../src/lib/auth', () => ({ useOptionalAuth: jest.fn(), useAuth: jest.fn() }));

type Line = LineOutcome;
const part = (id: string, name: string, sku: string) => ({ __typename: 'Part' as const, id, name, sku });
const pads = part('p-pads', 'Sintered Front Brake Pads', 'PY-PADS');
const oldPads = part('p-old', 'Sintered Front Brake Pads, earlier design', 'PY-OLD');

/** A line of the check as the server answers it (the number and quantity sent are left out, as the page asks). */
const line = ({
  number: _number,
  quantity: _quantity,
  ...overrides
}: { line: number; number?: string; quantity?: string } & Record<string, unknown>): Line =>
  ({
    __typename: 'QuickOrderLine',
    unitPrice: null,
    companyPriced: false,
    lineTotal: null,
    note: null,
    mergedInto: null,
    part: null,
    problem: null,
    replacement: null,
    replacementProblem: null,
    candidates: [],
    suggestions: [],
    ...overrides,
  }) as unknown as Line;
/** The line as adding answers it: without the fixes. */
const withoutFixes = ({ replacement: _r, replacementProblem: _p, candidates: _c, suggestions: _s, ...rest }: Line) =>
  rest;
const checked = (lines: Line[], total: number) => ({
  __typename: 'QuickOrderCheck',
  total,
  problemCount: lines.filter((l) => l.problem).length,
  lines,
});

function renderPage(mocks: MockedResponse[] = []) {
  toast.remove();
  return render(
    <MockedProvider mocks={mocks}>
      <TestRouter initialEntries={['/quick-order']}>
        <Routes>
          <Route path="/quick-order" element={<QuickOrderPage />} />
          <Route path="*" element={<p>Elsewhere</p>} />
        </Routes>
        <Toasts />
      </TestRouter>
    </MockedProvider>,
  );
}

const numberCell = (n: number) => screen.getByRole('textbox', { name: `Part number, row ${n}` });
const quantityCell = (n: number) => screen.getByRole('textbox', { name: `Quantity, row ${n}` });
const rowCount = () => screen.getAllByTestId('quick-order-row').length;

beforeEach(() => {
  sessionStorage.clear();
  jest.mocked(useOptionalAuth).mockReturnValue({ status: 'signedOut' } as ReturnType<typeof useOptionalAuth>);
});

describe('the quick order grid from the keyboard', () => {
  it('Enter adds a row below and goes to it; arrows Up and Down move in the same column', async () => {
    renderPage();
    expect(rowCount()).toBe(3);
    await userEvent.click(numberCell(1));
    await userEvent.keyboard('FA185HH');
    await userEvent.tab();
    expect(quantityCell(1)).toHaveFocus();
    await userEvent.keyboard('20{Enter}');
    expect(rowCount()).toBe(4);
    expect(numberCell(2)).toHaveFocus();
    expect(numberCell(2)).toHaveValue('');
    expect([numberCell(1), quantityCell(1)].map((c) => (c as HTMLInputElement).value)).toEqual(['FA185HH', '20']);
    await userEvent.keyboard('{ArrowDown}');
    expect(numberCell(3)).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(numberCell(1)).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(numberCell(1)).toHaveFocus();
    await userEvent.click(quantityCell(3));
    await userEvent.keyboard('{ArrowUp}');
    expect(quantityCell(2)).toHaveFocus();
    // Remove: the row goes, focus on the row now in its place.
    await userEvent.click(screen.getByRole('button', { name: 'Remove row 1' }));
    expect(rowCount()).toBe(3);
    expect(numberCell(1)).toHaveFocus();
    // Add row at the end.
    await userEvent.click(screen.getByRole('button', { name: 'Add row' }));
    expect(rowCount()).toBe(4);
    expect(numberCell(4)).toHaveFocus();
  });

  it("a spreadsheet's selection pasted into a cell fills rows from it, its header row skipped; one value pastes as text", async () => {
    renderPage();
    await userEvent.click(numberCell(1));
    await userEvent.paste('Part number\tQty\r\nFA185HH\t20\r\n520VX3-120\t10\r\nCR9EIX\t50\r\n');
    expect(rowCount()).toBe(3);
    expect([1, 2, 3].map((n) => [numberCell(n), quantityCell(n)].map((c) => (c as HTMLInputElement).value))).toEqual([
      ['FA185HH', '20'],
      ['520VX3-120', '10'],
      ['CR9EIX', '50'],
    ]);
    expect(screen.getByTestId('quick-order-status')).toHaveTextContent(
      '3 rows added from the pasted selection (its header row skipped).',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add row' }));
    await userEvent.paste('22201 166 000');
    expect(numberCell(4)).toHaveValue('22201 166 000');
    // The grid is kept in this tab (a visitor logging in comes back to it).
    expect(JSON.parse(sessionStorage.getItem(storageKey) ?? '[]')).toHaveLength(4);
  });

  it('a paste that would make more than 1,000 rows is refused with a message, and the grid is unchanged', async () => {
    renderPage();
    await userEvent.click(numberCell(2));
    await userEvent.paste(Array.from({ length: 1001 }, (_, i) => `P-${i}\t1`).join('\n'));
    expect(screen.getByRole('alert')).toHaveTextContent(quickOrderMessages.tooManyLines(1001));
    expect(rowCount()).toBe(3);
    expect(numberCell(2)).toHaveValue('');
  });

  it('the paste box adds its rows after the filled ones', async () => {
    renderPage();
    await userEvent.type(numberCell(1), 'FA185HH');
    await userEvent.click(screen.getByRole('textbox', { name: 'Paste from a spreadsheet' }));
    await userEvent.paste('CR9EIX;50\n520VX3-120;10');
    await userEvent.click(screen.getByRole('button', { name: 'Add these rows' }));
    expect(rowCount()).toBe(3);
    expect(numberCell(3)).toHaveValue('520VX3-120');
  });
});

describe('a CSV file chosen in the page', () => {
  // jsdom's File has no arrayBuffer() (every browser the shop supports has): read through its FileReader.
  beforeAll(() => {
    File.prototype.arrayBuffer ??= function arrayBuffer(this: File) {
      return new Promise<ArrayBuffer>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as ArrayBuffer);
        reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
        reader.readAsArrayBuffer(this);
      });
    };
  });
  const upload = (file: File) => userEvent.upload(screen.getByLabelText('Upload a CSV file'), file);
  const utf8File = (name: string, text: string) => new File([new TextEncoder().encode(text)], name);

  it("adds the file's rows after the filled ones, its byte order mark, Windows line ends and header read as such", async () => {
    renderPage();
    await userEvent.type(numberCell(1), 'FA185HH');
    await upload(utf8File('order.csv', '\ufeffPart number;Qty\r\nCR9EIX;50\r\n520VX3-120;10\r\n'));
    await screen.findByText('2 rows added from order.csv (its header row skipped). Check them when you are ready.');
    expect(rowCount()).toBe(3);
    expect([2, 3].map((n) => (quantityCell(n) as HTMLInputElement).value)).toEqual(['50', '10']);
  });

  it('refuses a file that is not a CSV, with a message, and leaves the grid as it was', async () => {
    renderPage();
    await userEvent.type(numberCell(1), 'FA185HH');
    await userEvent.upload(screen.getByLabelText('Upload a CSV file'), utf8File('order.xlsx', 'FA185HH,20'), {
      applyAccept: false,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'order.xlsx is not a CSV file: choose a .csv or .txt file (in a spreadsheet, Save as CSV)',
    );
    expect(rowCount()).toBe(3);
    expect(numberCell(1)).toHaveValue('FA185HH');
  });
});

describe("the server's check on each row", () => {
  const sent = [
    { number: 'FA185HH', quantity: '20', line: 1 },
    { number: '06455-MEN-305', quantity: '20', line: 2 },
    { number: 'NOPE-1', quantity: '5', line: 3 },
  ];
  const answer = [
    line({ ...sent[0], part: pads, unitPrice: 24.5, lineTotal: 490 }),
    line({
      ...sent[1],
      part: oldPads,
      replacement: pads,
      problem: {
        __typename: 'QuickOrderProblem',
        kind: 'SUPERSEDED',
        message: 'Replaced by Sintered Front Brake Pads',
      },
    }),
    line({
      ...sent[2],
      problem: { __typename: 'QuickOrderProblem', kind: 'UNKNOWN_NUMBER', message: 'No part carries this number' },
      suggestions: [{ __typename: 'NumberSuggestion', number: 'NOPE-2' }],
    }),
  ];
  const fill = async () => {
    await userEvent.click(numberCell(1));
    await userEvent.paste(sent.map((s) => `${s.number}\t${s.quantity}`).join('\n'));
  };

  it('each row shows its part and price or its problem, tied to its input; the outcome is announced and focus goes to the first bad row', async () => {
    renderPage([
      {
        request: { query: QuickOrderCheckDocument, variables: { lines: sent } },
        result: { data: { quickOrderCheck: checked(answer, 490) } },
      },
    ]);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText('2 of 3 rows need attention');
    expect(screen.getByTestId('quick-order-status')).toHaveAttribute('role', 'status');
    expect(numberCell(2)).toHaveFocus();
    expect(numberCell(2)).toHaveAttribute('aria-invalid', 'true');
    expect(numberCell(2)).toHaveAccessibleDescription('Replaced by Sintered Front Brake Pads');
    expect(quantityCell(2)).not.toHaveAttribute('aria-invalid');
    expect(numberCell(1)).not.toHaveAttribute('aria-invalid');
    expect(screen.getByTestId('quick-order-total')).toHaveTextContent('Total of the rows ready: $490.00');
    const rows = screen.getAllByTestId('quick-order-row');
    expect(within(rows[0]).getByTestId('row-price')).toHaveTextContent('$24.50 each, line total $490.00');
    // The replacement in one click: the number is set, focus back on it, the row waits for a new check.
    await userEvent.click(within(rows[1]).getByRole('button', { name: 'Use PY-PADS' }));
    expect(numberCell(2)).toHaveValue('PY-PADS');
    expect(numberCell(2)).toHaveFocus();
    expect(within(rows[1]).getByText('Changed since the check: check again')).toBeInTheDocument();
    // A suggestion for the unknown number, likewise.
    await userEvent.click(within(rows[2]).getByRole('button', { name: /^Use NOPE-2/ }));
    expect(numberCell(3)).toHaveValue('NOPE-2');
  });

  it('Add to cart sends the ready rows only and leaves the others in the grid to fix', async () => {
    jest.mocked(useOptionalAuth).mockReturnValue({ status: 'signedIn' } as ReturnType<typeof useOptionalAuth>);
    const cart = { __typename: 'Cart', total: 490, units: 20, problem: null, ready: true, lines: [] };
    renderPage([
      { request: { query: QuickOrderSavedListsDocument }, result: { data: { savedLists: [] } } },
      {
        request: { query: QuickOrderCheckDocument, variables: { lines: sent } },
        result: { data: { quickOrderCheck: checked(answer, 490) } },
      },
      {
        request: { query: AddQuickOrderToCartDocument, variables: { lines: [sent[0]] } },
        result: {
          data: {
            addQuickOrderToCart: {
              __typename: 'CartFromLines',
              added: true,
              check: { __typename: 'QuickOrderCheck', total: 490, lines: [withoutFixes(answer[0])] },
              cart,
            },
          },
        },
      },
    ]);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    await screen.findByText('1 row added to your cart ($490.00). 2 of 2 rows need attention.');
    expect(rowCount()).toBe(2);
    expect(numberCell(1)).toHaveValue('06455-MEN-305');
    expect(numberCell(1)).toHaveFocus();
    await act(async () => {});
    expect(screen.getAllByTestId('toast')[0]).toHaveTextContent('1 row added to your cart ($490.00)');
  });

  it('a visitor is asked to log in to add to the cart', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Log in to add to the cart' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: 'Add to cart' })).toBeNull();
  });
});
