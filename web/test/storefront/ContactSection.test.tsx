import type { MockedResponse } from '@apollo/client/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { ContactSection } from '../../src/features/home/components/ContactSection';
import { SendContactMessageDocument } from '../../src/generated/graphql';
import { renderStorefront } from './renderStorefront';

const input = {
  firstName: 'Rina',
  lastName: 'Das',
  phone: '01712345678',
  email: 'rina@example.com',
  message: 'Do you ship 200 chains to Sylhet?',
};

const field = (name: string) => screen.getByRole('textbox', { name });

async function fillIn(user: ReturnType<typeof userEvent.setup>, values: Partial<typeof input>) {
  const labels: Record<keyof typeof input, string> = {
    firstName: 'First Name',
    lastName: 'Last Name',
    phone: 'Phone',
    email: 'Email',
    message: 'Message',
  };
  for (const [key, value] of Object.entries(values)) await user.type(field(labels[key as keyof typeof input]), value);
}

/** The form is a chunk of its own, shown once loaded (jsdom has no IntersectionObserver: at once). */
async function renderContact(mocks: MockedResponse[] = []) {
  renderStorefront(<ContactSection />, mocks);
  await screen.findByRole('button', { name: 'Send Message' });
}

describe("the 'Leave us a message' form", () => {
  it('has First Name, Last Name, Phone (text), Email (email), a 4-row Message and Send Message', async () => {
    await renderContact();
    expect(screen.getByRole('heading', { name: 'Leave us a message' })).toBeInTheDocument();
    expect(field('First Name')).toHaveAttribute('type', 'text');
    expect(field('Last Name')).toHaveAttribute('type', 'text');
    expect(field('Phone')).toHaveAttribute('type', 'text');
    expect(field('Email')).toHaveAttribute('type', 'email');
    expect(field('Message').tagName).toBe('TEXTAREA');
    expect(field('Message')).toHaveAttribute('rows', '4');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeInTheDocument();
    expect(screen.getByText('221 Workshop Lane, Motor City 1207')).toBeInTheDocument();
  });

  it('shows the message of each required field, and of a malformed email', async () => {
    const user = userEvent.setup();
    await renderContact();
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Last name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Message is required')).toBeInTheDocument();
    await fillIn(user, { email: 'not-an-email' });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Provide a valid email')).toBeInTheDocument();
  });

  it('sends the message, thanks the visitor and empties the form', async () => {
    const user = userEvent.setup();
    const send = jest.fn(() => ({ data: { sendContactMessage: { __typename: 'ContactMessage', id: 'msg-1' } } }));
    await renderContact([{ request: { query: SendContactMessageDocument, variables: { input } }, result: send }]);
    await fillIn(user, { ...input, firstName: `  ${input.firstName} ` });
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Thank you! Your message has been sent.')).toBeInTheDocument();
    expect(send).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(field('First Name')).toHaveValue(''));
    expect(field('Email')).toHaveValue('');
    expect(field('Message')).toHaveValue('');
  });

  it('toasts the error when the shop refuses the message, and keeps what was typed', async () => {
    const user = userEvent.setup();
    await renderContact([
      {
        request: { query: SendContactMessageDocument, variables: { input } },
        result: { errors: [new GraphQLError('Too many messages: try again in a minute')] },
      },
    ]);
    await fillIn(user, input);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Too many messages: try again in a minute')).toBeInTheDocument();
    expect(screen.queryByText('Thank you! Your message has been sent.')).not.toBeInTheDocument();
    expect(field('First Name')).toHaveValue('Rina');
  });
});
