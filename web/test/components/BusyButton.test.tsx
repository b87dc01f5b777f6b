import { fireEvent, render, screen } from '@testing-library/react';
import { BusyButton } from '../../src/components/BusyButton';

describe('BusyButton', () => {
  it('is a submit button that works while idle', () => {
    const onClick = jest.fn();
    render(
      <BusyButton busy={false} onClick={onClick}>
        Send Message
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Send Message' });
    expect(button).toHaveAttribute('type', 'submit');
    expect(button).toBeEnabled();
    expect(button.querySelector('.loading-spinner')).toBeNull();
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('while busy it is disabled and shows a spinner of the size asked for before its label', () => {
    render(
      <BusyButton type="button" busy spinner="xs">
        Pending
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Pending' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toBeDisabled();
    expect(button.firstElementChild).toHaveClass('loading', 'loading-spinner', 'loading-xs');
  });

  it('can be disabled for another reason without a spinner', () => {
    render(
      <BusyButton busy={false} disabled>
        Pay $10.00
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Pay $10.00' });
    expect(button).toBeDisabled();
    expect(button.querySelector('.loading-spinner')).toBeNull();
  });
});
