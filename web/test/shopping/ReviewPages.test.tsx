import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GraphQLError } from 'graphql';
import { useAuth } from '../../src/lib/auth';
import AddReviewPage from '../../src/features/reviews/AddReviewPage';
import ReviewPage from '../../src/features/reviews/ReviewPage';
import { AddReviewDocument, MyPaymentsDocument, PartDocument } from '../../src/generated/graphql';
import { brakePads, customer, renderShopping, signedInAs } from './renderShopping';

jest.mock('../../src/lib/auth', () => ({ useAuth: jest.fn() }));

const part = brakePads();
const partAnswer = () => ({ request: { query: PartDocument, variables: { id: part.id } }, result: { data: { part } } });
const reviewAnswer = (text: string, result: object) => ({
  request: { query: AddReviewDocument, variables: { input: { partId: part.id, text } } },
  result,
});

const renderReview = (mocks: Parameters<typeof renderShopping>[1]) =>
  renderShopping(<ReviewPage />, mocks, '/reviews/:partId', `/reviews/${part.id}`);

const reviewBox = () => screen.getByLabelText('Review') as HTMLTextAreaElement;

beforeEach(() => jest.mocked(useAuth).mockReturnValue(signedInAs(customer) as unknown as ReturnType<typeof useAuth>));

describe('Add Review page', () => {
  it("is headed 'You can only add a review for paid orders.' and links each paid order to its review form", async () => {
    renderShopping(
      <AddReviewPage />,
      [
        {
          request: { query: MyPaymentsDocument, variables: {} },
          result: {
            data: {
              myPayments: [
                {
                  __typename: 'Payment',
                  id: 'pay-1',
                  orderId: 'order-1',
                  partId: part.id,
                  partName: part.name,
                  transactionId: 'pi_test_1',
                  amount: 490,
                },
              ],
            },
          },
        },
      ],
      '/dashboard/add-review',
    );
    expect(screen.getByRole('heading', { name: 'You can only add a review for paid orders.' })).toBeInTheDocument();
    expect(await screen.findByText(part.name)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a review' })).toHaveAttribute('href', `/reviews/${part.id}`);
  });
});

describe('Review page', () => {
  it('sums up the part and shows Name and Email read-only', async () => {
    renderReview([partAnswer()]);
    expect(await screen.findByRole('heading', { name: part.name })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue(customer.displayName);
    expect(screen.getByLabelText('Name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Email')).toHaveValue(customer.email);
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
  });

  it('an empty review says "Review can\'t be empty"', async () => {
    renderReview([partAnswer()]);
    await userEvent.click(await screen.findByRole('button', { name: 'Add Review' }));
    expect(await screen.findByText("Review can't be empty")).toBeInTheDocument();
  });

  it("a review is posted: toast 'Thank you for your review!' and the form resets", async () => {
    const text = 'Great pads, they stop well in the rain.';
    renderReview([
      partAnswer(),
      reviewAnswer(text, {
        data: {
          addReview: {
            __typename: 'Review',
            id: 'r1',
            name: customer.displayName,
            email: customer.email,
            avatar: '',
            text,
            partName: part.name,
          },
        },
      }),
    ]);
    await userEvent.type(await screen.findByLabelText('Review'), text);
    await userEvent.click(screen.getByRole('button', { name: 'Add Review' }));
    expect(await screen.findByText('Thank you for your review!')).toBeInTheDocument();
    await waitFor(() => expect(reviewBox()).toHaveValue(''));
    expect(screen.getByLabelText('Name')).toHaveValue(customer.displayName);
  });

  it('a refusal (not paid for) shows as a toast', async () => {
    renderReview([
      partAnswer(),
      reviewAnswer('Nice', {
        errors: [new GraphQLError('You can only add a review for paid orders.', { extensions: { code: 'FORBIDDEN' } })],
      }),
    ]);
    await userEvent.type(await screen.findByLabelText('Review'), 'Nice');
    await userEvent.click(screen.getByRole('button', { name: 'Add Review' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('You can only add a review for paid orders.');
  });
});
