import { MockedProvider } from '@apollo/client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { narrow } from '../../src/features/garage/Combobox';
import { VehiclePicker } from '../../src/features/garage/VehiclePicker';
import { crf2019, crf2019Abs, pickerMocks } from './pickerMocks';

/**
 * The vehicle picker (issue 33 point 3): make, then model, then year, then variant, each a combobox whose list
 * narrows as one types, walked with the keyboard alone (the focus moves on as each step is chosen).
 */

function renderPicker() {
  const chosen = jest.fn(async () => {});
  render(
    <MockedProvider mocks={pickerMocks}>
      <VehiclePicker onChoose={chosen} />
    </MockedProvider>,
  );
  return chosen;
}

const field = (name: string) => screen.getByRole('combobox', { name });
/** The options the list shows now. */
const shownOptions = (name: string) =>
  within(screen.getByRole('listbox', { name: new RegExp(`^${name}:`) }))
    .queryAllByRole('option')
    .map((o) => o.textContent);

describe('the vehicle picker', () => {
  it('narrows to the names where each typed word starts a word, else to those holding it; case and order aside', () => {
    const names = (...labels: string[]) => labels.map((label) => ({ id: label, label }));
    const shown = (labels: string[], typed: string) => narrow(names(...labels), typed).map((o) => o.label);
    expect(shown(['Honda', 'Husqvarna', 'Yamaha'], 'h')).toEqual(['Honda', 'Husqvarna']);
    expect(shown(['Honda', 'Husqvarna', 'Yamaha'], 'MAHA')).toEqual(['Yamaha']);
    expect(shown(['CRF250R', 'CRF450R', 'CRF450RX'], '450 crf')).toEqual(['CRF450R', 'CRF450RX']);
    expect(shown(['CRF250R', 'CRF450R', 'CRF450RX'], '450rx')).toEqual(['CRF450RX']);
    expect(shown(['2020', '2019', '2018'], '19')).toEqual(['2019']);
    expect(shown(['Base model', 'ABS', 'Dakar edition'], 'ed')).toEqual(['Dakar edition']);
    expect(shown(['Honda', 'Yamaha'], '  ')).toEqual(['Honda', 'Yamaha']);
    expect(shown(['Honda', 'Yamaha'], '%_')).toEqual([]);
  });

  it('narrows each list as one types, and the keyboard alone picks make, model, year and variant', async () => {
    const user = userEvent.setup();
    const chosen = renderPicker();
    const make = field('Make');
    // Later steps wait for the earlier ones.
    expect(field('Model')).toBeDisabled();
    expect(field('Year')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Choose this bike' })).toBeDisabled();

    await user.click(make);
    await user.keyboard('h');
    await waitFor(() => expect(shownOptions('Make')).toEqual(['Honda', 'Husqvarna']));
    expect(make).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('2 makes match')).toBeInTheDocument();
    await user.keyboard('on');
    expect(shownOptions('Make')).toEqual(['Honda']);
    expect(screen.getByText('1 make matches')).toBeInTheDocument();
    // The active option is the field's active descendant; Enter chooses it and the focus moves on to Model.
    const active = screen.getByRole('option', { name: 'Honda' });
    expect(make).toHaveAttribute('aria-activedescendant', active.id);
    await user.keyboard('{Enter}');
    expect(make).toHaveValue('Honda');
    expect(make).toHaveAttribute('aria-expanded', 'false');
    const model = field('Model');
    await waitFor(() => expect(model).toHaveFocus());

    await user.keyboard('450');
    await waitFor(() => expect(shownOptions('Model')).toEqual(['CRF450R', 'CRF450RX']));
    await user.keyboard('zz');
    expect(screen.getByText('No model matches “450zz”.')).toBeInTheDocument();
    await user.keyboard('{Backspace}{Backspace}');
    // Down moves through the list (and wraps), Up back.
    await user.keyboard('{ArrowDown}');
    expect(model).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'CRF450RX' }).id);
    await user.keyboard('{ArrowDown}');
    expect(model).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'CRF450R' }).id);
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    expect(model).toHaveValue('CRF450R');

    const year = field('Year');
    await waitFor(() => expect(year).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(shownOptions('Year')).toEqual(['2020', '2019', '2018']);
    await user.keyboard('19{Enter}');
    expect(year).toHaveValue('2019');

    // 2019 comes as the base model and an ABS variant: the variant is asked for.
    const variant = field('Variant');
    await waitFor(() => expect(variant).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(shownOptions('Variant')).toEqual(['Base model', 'ABS']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByText(crf2019Abs.name)).toBeInTheDocument();
    const choose = screen.getByRole('button', { name: 'Choose this bike' });
    await waitFor(() => expect(choose).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(chosen).toHaveBeenCalledWith({ id: crf2019Abs.id, name: '2019 Honda CRF450R ABS' });
  });

  it('a year with the base model alone needs no variant; changing an earlier step empties the later ones', async () => {
    const user = userEvent.setup();
    const chosen = renderPicker();
    await user.click(field('Make'));
    await user.keyboard('honda{Enter}');
    await waitFor(() => expect(field('Model')).toHaveFocus());
    // Typed in full, the name is chosen on leaving the field too.
    await user.keyboard('crf450r');
    await user.tab();
    expect(field('Model')).toHaveValue('CRF450R');
    await user.click(field('Year'));
    await user.keyboard('2020{Enter}');
    expect(field('Variant')).toBeDisabled();
    expect(field('Variant')).toHaveValue('Base model');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Choose this bike' })).toHaveFocus());

    // Another make: model, year and variant start again.
    await user.click(field('Make'));
    await user.clear(field('Make'));
    await user.keyboard('yam{Enter}');
    expect(field('Model')).toHaveValue('');
    expect(field('Year')).toHaveValue('');
    expect(field('Year')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Choose this bike' })).toBeDisabled();
    expect(chosen).not.toHaveBeenCalled();
  });

  it('Escape closes the list first and then empties the field, without reaching the dialog around it', async () => {
    const user = userEvent.setup();
    const dialogEscape = jest.fn();
    render(
      <MockedProvider mocks={pickerMocks}>
        <div onKeyDown={(e) => e.key === 'Escape' && dialogEscape()}>
          <VehiclePicker onChoose={async () => {}} />
        </div>
      </MockedProvider>,
    );
    const make = field('Make');
    await user.click(make);
    await user.keyboard('ya');
    await waitFor(() => expect(shownOptions('Make')).toEqual(['Yamaha']));
    await user.keyboard('{Escape}');
    expect(make).toHaveAttribute('aria-expanded', 'false');
    expect(make).toHaveValue('ya');
    await user.keyboard('{Escape}');
    expect(make).toHaveValue('');
    expect(dialogEscape).not.toHaveBeenCalled();
    // An empty field lets Escape through: the dialog closes.
    await user.keyboard('{Escape}');
    expect(dialogEscape).toHaveBeenCalledTimes(1);
  });

  it('a click on an option chooses it', async () => {
    const user = userEvent.setup();
    renderPicker();
    await user.click(field('Make'));
    await waitFor(() => expect(shownOptions('Make')).toHaveLength(3));
    await user.click(screen.getByRole('option', { name: 'Honda' }));
    expect(field('Make')).toHaveValue('Honda');
    await waitFor(() => expect(field('Model')).toBeEnabled());
    expect(crf2019.name).toBe('2019 Honda CRF450R');
  });
});
