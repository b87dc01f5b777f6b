import { screen } from '@testing-library/react';
import MessagesPage from '../../src/features/admin/MessagesPage';
import { ContactMessagesDocument } from '../../src/generated/graphql';
import { renderAdmin } from './renderAdmin';

const message = (id: string, text: string, createdAt: string) => ({
  __typename: 'ContactMessage' as const,
  id,
  firstName: 'Rita',
  lastName: 'Rider',
  phone: '01712345678',
  email: 'rita@example.test',
  message: text,
  createdAt,
});

describe('Messages', () => {
  it("lists messages newest first as the server orders them, showing the visitor's text as text", async () => {
    const items = [
      message('m2', '<img src=x onerror=alert(1)> Do you ship to Chittagong?', '2026-02-02T10:00:00.000Z'),
      message('m1', 'Hello', '2026-02-01T10:00:00.000Z'),
    ];
    const { container } = renderAdmin(<MessagesPage />, [
      {
        request: { query: ContactMessagesDocument, variables: { offset: 0, limit: 20 } },
        result: { data: { contactMessages: { __typename: 'ContactMessagePage', items, total: 2 } } },
      },
    ]);
    expect(await screen.findByText('<img src=x onerror=alert(1)> Do you ship to Chittagong?')).toBeInTheDocument();
    expect(container.querySelector('img[src="x"]')).toBeNull();
    const cards = screen.getAllByTestId('message');
    expect(cards[0]).toHaveTextContent('Chittagong');
    expect(cards[1]).toHaveTextContent('Hello');
    expect(cards[0]).toHaveTextContent('Rita Rider');
    expect(cards[0]).toHaveTextContent('rita@example.test');
    expect(cards[0]).toHaveTextContent('01712345678');
  });
});
