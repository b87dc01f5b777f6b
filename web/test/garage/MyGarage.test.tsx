import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-hot-toast/headless';
import { CurrentBikeChip } from '../../src/components/garage/CurrentBikeChip';
import { GarageButton } from '../../src/components/garage/GarageButton';
import { Toasts } from '../../src/components/Toasts';
import { GarageProvider } from '../../src/features/garage/GarageProvider';
import {
  MergeGarageDocument,
  MyGarageDocument,
  type GarageFieldsFragment,
  type MergeGarageMutationVariables,
} from '../../src/generated/graphql';
import { useOptionalAuth } from '../../src/lib/auth';
import { useCurrentVehicleId } from '../../src/lib/garage/garage';
import { maxVisitorBikes, visitorGarage, visitorGarageFullMessage } from '../../src/lib/garage/visitorGarage';
import { polyfillDialog } from '../shopping/renderShopping';
import { TestRouter } from '../support/TestRouter';
import { crf2019, crf2020, pickerMocks } from './pickerMocks';

/**
 * My garage in the browser (issue 33 point 3): a visitor's bikes kept in this browser with one current, shown in the
 * header and the catalog's chip and given to the catalog by `useCurrentVehicleId`; picked in the dialog; joined to the
 * account's garage at sign-in, as the cart is.
 */

jest.mock('../../src/lib/auth', () => ({ useOptionalAuth: jest.fn(), useAuth: jest.fn() }));

const signedOut = { status: 'signedOut', user: null };
const signedIn = { status: 'signedIn', user: { uid: 'uid-rider', email: 'rider@example.test' } };
const authAs = (value: object) =>
  jest.mocked(useOptionalAuth).mockReturnValue(value as unknown as ReturnType<typeof useOptionalAuth>);

function CurrentVehicleId() {
  return <output data-testid="current-vehicle-id">{useCurrentVehicleId() ?? 'none'}</output>;
}

function renderGarage(mocks: MockedResponse[] = []) {
  return render(
    <MockedProvider mocks={[...pickerMocks, ...mocks]}>
      <TestRouter>
        <GarageProvider>
          <GarageButton />
          <CurrentBikeChip />
          <CurrentVehicleId />
        </GarageProvider>
        <Toasts />
      </TestRouter>
    </MockedProvider>,
  );
}

const serverGarage = (current: typeof crf2019 | null, ...bikes: (typeof crf2019)[]) =>
  ({
    __typename: 'Garage',
    bikes: bikes.map((b) => ({
      __typename: 'GarageBike',
      current: b.id === current?.id,
      vehicle: { __typename: 'Vehicle', id: b.id, name: b.name },
    })),
    current: current && { __typename: 'Vehicle', id: current.id, name: current.name },
  }) as GarageFieldsFragment;

beforeAll(polyfillDialog);
beforeEach(() => {
  toast.remove();
  localStorage.clear();
  visitorGarage.clear();
});

describe('a visitor’s garage', () => {
  it('picks 2019 Honda CRF450R with the keyboard: it is the current bike in the header, the chip and for the catalog', async () => {
    authAs(signedOut);
    const user = userEvent.setup();
    renderGarage();
    expect(screen.getByRole('button', { name: 'My bike: none chosen' })).toBeInTheDocument();
    expect(screen.getByTestId('current-vehicle-id')).toHaveTextContent('none');

    await user.click(screen.getByRole('button', { name: 'Choose your bike' }));
    const dialog = await screen.findByRole('dialog', { name: 'My garage' });
    expect(within(dialog).getByText(/kept in this browser/)).toBeInTheDocument();
    const make = within(dialog).getByRole('combobox', { name: 'Make' });
    await waitFor(() => expect(make).toHaveFocus());
    await user.keyboard('hon{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Model' })).toHaveFocus());
    await user.keyboard('crf450r{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Year' })).toHaveFocus());
    await user.keyboard('2019{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Variant' })).toHaveFocus());
    await user.keyboard('base{Enter}');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Choose this bike' })).toHaveFocus());
    await user.keyboard('{Enter}');

    await waitFor(() => expect(dialog).not.toHaveAttribute('open'));
    expect(await screen.findByText('2019 Honda CRF450R is your current bike')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'My bike: 2019 Honda CRF450R' })).toBeInTheDocument();
    expect(within(screen.getByTestId('current-bike')).getByText('2019 Honda CRF450R')).toBeInTheDocument();
    expect(screen.getByTestId('current-vehicle-id')).toHaveTextContent(crf2019.id);
    expect(JSON.parse(localStorage.getItem('partsyard.garage') ?? '{}')).toEqual({
      bikes: [{ id: crf2019.id, name: '2019 Honda CRF450R' }],
      currentId: crf2019.id,
    });

    // The chip's Clear: no current bike, the bike stays in the garage.
    await user.click(within(screen.getByTestId('current-bike')).getByRole('button', { name: 'Clear your bike' }));
    expect(screen.getByTestId('current-vehicle-id')).toHaveTextContent('none');
    expect(visitorGarage.read().bikes).toHaveLength(1);
  });

  it('My garage lists the bikes: make one current, remove one', async () => {
    authAs(signedOut);
    visitorGarage.add({ id: crf2019.id, name: crf2019.name }, true);
    visitorGarage.add({ id: crf2020.id, name: crf2020.name }, false);
    const user = userEvent.setup();
    renderGarage();
    await user.click(screen.getByRole('button', { name: 'My bike: 2019 Honda CRF450R' }));
    const dialog = await screen.findByRole('dialog', { name: 'My garage' });
    const rows = within(dialog).getAllByTestId('garage-bike');
    expect(rows.map((r) => within(r).queryByText('Current') !== null)).toEqual([true, false]);
    expect(within(rows[0]).getByRole('button', { name: '2019 Honda CRF450R: Clear current bike' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '2020 Honda CRF450R: Make current' }));
    expect(screen.getByTestId('current-vehicle-id')).toHaveTextContent(crf2020.id);
    await user.click(within(dialog).getByRole('button', { name: '2020 Honda CRF450R: Remove' }));
    expect(screen.getByTestId('current-vehicle-id')).toHaveTextContent('none');
    expect(within(dialog).getAllByTestId('garage-bike')).toHaveLength(1);
    // Closed, the focus goes back to the button that opened it.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(dialog).not.toHaveAttribute('open');
    expect(screen.getByRole('button', { name: 'My bike: none chosen' })).toHaveFocus();
  });

  it(`keeps each bike once and at most ${maxVisitorBikes}; what it cannot read it ignores`, () => {
    for (let i = 0; i < maxVisitorBikes; i += 1) visitorGarage.add({ id: `v-${i}`, name: `Bike ${i}` }, false);
    visitorGarage.add({ id: 'v-3', name: 'Bike 3' }, true);
    expect(visitorGarage.read().bikes).toHaveLength(maxVisitorBikes);
    expect(visitorGarage.read().currentId).toBe('v-3');
    expect(() => visitorGarage.add({ id: 'v-extra', name: 'One more' }, true)).toThrow(visitorGarageFullMessage);
    visitorGarage.remove('v-3');
    expect(visitorGarage.read().currentId).toBeNull();
    visitorGarage.clear();
    localStorage.setItem(
      'partsyard.garage',
      '{"bikes": [{"id": 7}, {"id": "v-1", "name": "Bike 1"}], "currentId": "v-9"}',
    );
    window.dispatchEvent(new StorageEvent('storage', { key: 'partsyard.garage' }));
    expect(visitorGarage.read()).toEqual({ bikes: [{ id: 'v-1', name: 'Bike 1' }], currentId: null });
    localStorage.setItem('partsyard.garage', 'not json');
    window.dispatchEvent(new StorageEvent('storage', { key: 'partsyard.garage' }));
    expect(visitorGarage.read()).toEqual({ bikes: [], currentId: null });
  });
});

describe('joining the visitor’s garage at sign-in', () => {
  it('merges the browser’s bikes with their current one (the account’s garage is asked only after), then empties the browser’s', async () => {
    visitorGarage.add({ id: crf2020.id, name: crf2020.name }, false);
    visitorGarage.add({ id: crf2019.id, name: crf2019.name }, true);
    const asked: string[] = [];
    const sent: MergeGarageMutationVariables[] = [];
    const merged = serverGarage(crf2019, crf2020, crf2019);
    const mocks: MockedResponse[] = [
      {
        request: { query: MergeGarageDocument },
        variableMatcher: (variables: MergeGarageMutationVariables) => {
          sent.push(variables);
          asked.push('merge');
          return true;
        },
        // The answer takes a while: the account's garage must not be asked meanwhile.
        delay: 100,
        result: {
          data: {
            mergeGarage: {
              __typename: 'GarageMerge',
              garage: merged,
              notes: [{ __typename: 'GarageMergeNote', vehicleId: 'gone', message: 'A bike was left out' }],
            },
          },
        },
      },
      {
        request: { query: MyGarageDocument },
        result: () => {
          asked.push(visitorGarage.read().bikes.length ? 'myGarage before the merge answered' : 'myGarage');
          return { data: { myGarage: merged } };
        },
        maxUsageCount: 10,
      },
    ];
    authAs(signedIn);
    renderGarage(mocks);
    await waitFor(() => expect(visitorGarage.read().bikes).toEqual([]));
    expect(sent).toEqual([
      {
        vehicleIds: [crf2020.id, crf2019.id],
        currentId: crf2019.id,
        mergeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
    expect(await screen.findByText('A bike was left out')).toBeInTheDocument();
    await waitFor(() => expect(asked).toEqual(['merge', 'myGarage']));
    expect(screen.getByRole('button', { name: 'My bike: 2019 Honda CRF450R' })).toBeInTheDocument();
    expect(screen.getByTestId('current-vehicle-id')).toHaveTextContent(crf2019.id);
  });

  it('a merge that failed keeps the bikes in the browser, shown and current, for the next try', async () => {
    visitorGarage.add({ id: crf2019.id, name: crf2019.name }, true);
    authAs(signedIn);
    renderGarage([
      { request: { query: MergeGarageDocument }, variableMatcher: () => true, error: new Error('Failed to fetch') },
    ]);
    expect(await screen.findByText(/Your garage could not be saved to your account/)).toBeInTheDocument();
    expect(visitorGarage.read().bikes).toHaveLength(1);
    await act(async () => {});
    expect(screen.getByTestId('current-vehicle-id')).toHaveTextContent(crf2019.id);
  });
});
