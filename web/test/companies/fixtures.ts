import { CompanyApprovalsDocument } from '../../src/generated/companies';
import { CompanyAccountDocument, CompanyInvoicesDocument } from '../../src/generated/invoicing';

/** Answers of the companies' API, as the server shapes them, for the companies' page tests. */
export const address = {
  __typename: 'CompanyAddress' as const,
  id: 'a1',
  label: 'Main workshop',
  address: '12 Harbour Road\nLeeds',
};

export const member = (
  userId: string,
  name: string,
  email: string,
  role: 'COMPANY_ADMIN' | 'BUYER',
  orderLimit: number | null = null,
) => ({
  __typename: 'CompanyMember' as const,
  userId,
  name,
  email,
  role,
  orderLimit,
});

export const company = (overrides: Record<string, unknown> = {}) => ({
  __typename: 'Company' as const,
  id: 'c1',
  name: 'Moto Works Ltd',
  taxId: 'GB123456789',
  myRole: 'COMPANY_ADMIN' as 'COMPANY_ADMIN' | 'BUYER' | null,
  addresses: [address],
  members: [
    member('u1', 'Ada Owner', 'ada@example.test', 'COMPANY_ADMIN'),
    member('u2', 'Ben Buyer', 'ben@example.test', 'BUYER'),
  ],
  invitations: [] as unknown[],
  ...overrides,
});

export const invitationToMe = {
  __typename: 'CompanyInvitation' as const,
  id: 'i1',
  companyName: 'Moto Works Ltd',
  role: 'BUYER' as const,
  expiresAt: '2026-12-12T10:00:00.000Z',
};

/** A checkout awaiting approval of one line (2 × Brake pads), as the company's admins see it. */
export const awaiting = (id: string, buyerName: string, total: number) => ({
  __typename: 'AwaitingApproval' as const,
  id,
  total,
  createdAt: '2026-11-28T10:00:00.000Z',
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  buyer: {
    __typename: 'ApprovalBuyer' as const,
    userId: `${id}-buyer`,
    name: buyerName,
    email: `${id}@example.test`,
    orderLimit: 100,
  },
  orders: [
    {
      __typename: 'Order' as const,
      id: `${id}-o1`,
      partName: 'Brake pads',
      orderAmount: 2,
      unitPrice: total / 2,
      price: total,
      status: 'AWAITING_APPROVAL' as const,
    },
  ],
});

/** The answer of the company's approvals list (company c1, the first page). */
export const approvals = (items: ReturnType<typeof awaiting>[], companyId = 'c1') => ({
  request: {
    query: CompanyApprovalsDocument,
    variables: { id: companyId, offset: 0, limit: 20 },
  },
  result: { data: { companyApprovals: { __typename: 'AwaitingApprovalPage' as const, items, total: items.length } } },
});
/**
 * The pay-on-account sections' answers for a company without terms or invoices (issue 35 point 4), as many times as
 * they are asked: for the pages' tests that are about something else.
 */
export const noInvoicing = (companyId = 'c1') => [
  {
    request: { query: CompanyAccountDocument, variables: { companyId } },
    result: { data: { companyAccount: null } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  },
  {
    request: { query: CompanyInvoicesDocument, variables: { companyId, status: null, offset: 0, limit: 20 } },
    result: { data: { companyInvoices: { __typename: 'InvoicePage' as const, total: 0, items: [] } } },
    maxUsageCount: Number.POSITIVE_INFINITY,
  },
];
