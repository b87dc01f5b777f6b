import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Formik } from 'formik';
import { object, string } from 'yup';
import { FormField, ShopForm } from '../../src/components/form/ShopForm';

const schema = object({
  name: string().required('Name is required'),
  phone: string().required('Phone is required').min(11, 'Must be 11 characters'),
  email: string().required('Email is required'),
});

function renderForm(onSubmit = jest.fn()) {
  render(
    <Formik initialValues={{ name: 'Rita', phone: '', email: '' }} validationSchema={schema} onSubmit={onSubmit}>
      <ShopForm aria-label="Test form">
        <FormField name="name" label="Name" />
        <FormField name="phone" label="Phone" />
        <FormField name="email" label="Email" type="email" />
        <button type="submit">Send</button>
      </ShopForm>
    </Formik>,
  );
  return onSubmit;
}

/** The element a field's aria-describedby names. */
const describedBy = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby') ?? '');

describe('ShopForm and FormField (every form of the shop)', () => {
  it('a submit with errors ties each message to its field (aria-invalid, aria-describedby) and focuses the first invalid field', async () => {
    const onSubmit = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    const phone = screen.getByLabelText('Phone');
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(phone).toHaveFocus());
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(describedBy(phone)).toHaveTextContent('Phone is required');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(describedBy(email)).toHaveTextContent('Email is required');
    expect(phone).toHaveAccessibleDescription('Phone is required');
    // A valid field is neither invalid nor described by a message.
    const name = screen.getByLabelText('Name');
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(name).not.toHaveAttribute('aria-describedby');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('each message sits in a polite live region that is there before the message, so it is announced when it appears', async () => {
    renderForm();
    const region = document.getElementById('field-phone-error');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(region).toHaveTextContent('Phone is required'));
  });

  it("the server's messages (set in onSubmit) are tied the same way, and focus goes to the first of them", async () => {
    render(
      <Formik
        initialValues={{ name: 'Rita', phone: '01712345678', email: 'rita@example.com' }}
        validationSchema={schema}
        onSubmit={async (_values, helpers) => helpers.setErrors({ email: 'This email is taken' })}
      >
        <ShopForm>
          <FormField name="name" label="Name" />
          <FormField name="phone" label="Phone" />
          <FormField name="email" label="Email" type="email" />
          <button type="submit">Send</button>
        </ShopForm>
      </Formik>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('This email is taken');
  });

  it('a field left by pressing the pointer on the button shows its message only once the pointer is released', async () => {
    renderForm();
    const phone = screen.getByLabelText('Phone');
    const send = screen.getByRole('button', { name: 'Send' });
    phone.focus();
    fireEvent.change(phone, { target: { value: '0171' } });
    // Mouse down on Send: the field loses focus, but nothing moves under the pointer yet.
    fireEvent.pointerDown(send);
    fireEvent.blur(phone);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByText('Must be 11 characters')).not.toBeInTheDocument();
    expect(phone).not.toHaveAttribute('aria-invalid');
    // Released (and its click handled): now the message shows.
    fireEvent.pointerUp(send);
    expect(await screen.findByText('Must be 11 characters')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
  });

  it('a field left with the keyboard shows its message at once', async () => {
    renderForm();
    await userEvent.click(screen.getByLabelText('Phone'));
    await userEvent.type(screen.getByLabelText('Phone'), '0171');
    await userEvent.tab();
    expect(await screen.findByText('Must be 11 characters')).toBeInTheDocument();
  });
});
