import { centsToDollars } from '@partsyard/common';
import type { MutationResolvers, QueryResolvers, Resolvers } from './generated';

/** Companies' thin adapters (issue 35): each says which operation of api/src/companies does the work. */

export const companyQueries: Pick<
  QueryResolvers,
  'myCompany' | 'company' | 'companies' | 'myCompanyInvitations' | 'companyApprovals'
> = {
  myCompany: (_, __, { services, actor }) => services.companies.myCompany(actor),
  company: (_, { id }, { services, actor }) => services.companies.company(actor, id),
  companies: (_, args, { services, actor }) => services.companies.listCompanies(actor, args),
  myCompanyInvitations: (_, __, { services, actor }) => services.companies.myInvitations(actor),
  companyApprovals: (_, { id, offset, limit }, { services, actor }) =>
    services.approvals.companyApprovals(actor, id, { offset, limit }),
};

export const companyMutations: Pick<
  MutationResolvers,
  | 'createCompany'
  | 'updateCompany'
  | 'addCompanyAddress'
  | 'removeCompanyAddress'
  | 'inviteToCompany'
  | 'withdrawCompanyInvitation'
  | 'acceptCompanyInvitation'
  | 'declineCompanyInvitation'
  | 'setCompanyMemberRole'
  | 'removeCompanyMember'
  | 'leaveCompany'
  | 'setCompanyBuyerLimit'
  | 'approveCheckout'
  | 'declineCheckout'
> = {
  createCompany: (_, { input }, { services, actor }) => services.companies.createCompany(actor, input),
  updateCompany: (_, { id, input }, { services, actor }) => services.companies.updateCompany(actor, id, input),
  addCompanyAddress: (_, { id, input }, { services, actor }) => services.companies.addCompanyAddress(actor, id, input),
  removeCompanyAddress: (_, { id, addressId }, { services, actor }) =>
    services.companies.removeCompanyAddress(actor, id, addressId),
  inviteToCompany: (_, { id, email, role }, { services, actor }) =>
    services.companies.inviteToCompany(actor, id, { email, role }),
  withdrawCompanyInvitation: (_, { id }, { services, actor }) => services.companies.withdrawInvitation(actor, id),
  acceptCompanyInvitation: (_, { id }, { services, actor }) => services.companies.acceptInvitation(actor, id),
  declineCompanyInvitation: (_, { id }, { services, actor }) => services.companies.declineInvitation(actor, id),
  setCompanyMemberRole: (_, { id, userId, role }, { services, actor }) =>
    services.companies.setMemberRole(actor, id, userId, role),
  removeCompanyMember: (_, { id, userId }, { services, actor }) => services.companies.removeMember(actor, id, userId),
  leaveCompany: (_, __, { services, actor }) => services.companies.leaveCompany(actor),
  setCompanyBuyerLimit: (_, { id, userId, orderLimit }, { services, actor }) =>
    services.companies.setBuyerLimit(actor, id, userId, orderLimit),
  approveCheckout: (_, { id }, { services, actor }) => services.approvals.approveCheckout(actor, id),
  declineCheckout: (_, { id }, { services, actor }) => services.approvals.declineCheckout(actor, id),
};

export const companyTypes: Pick<
  Resolvers,
  | 'Company'
  | 'CompanySummary'
  | 'CompanyMember'
  | 'CompanyInvitation'
  | 'CompanyRole'
  | 'CompanyInvitationStatus'
  | 'AwaitingApproval'
  | 'ApprovalBuyer'
> = {
  CompanyRole: { COMPANY_ADMIN: 'company_admin', BUYER: 'buyer' },
  CompanyInvitationStatus: { PENDING: 'pending', ACCEPTED: 'accepted', DECLINED: 'declined', WITHDRAWN: 'withdrawn' },
  Company: {
    id: (view) => view.company.id,
    name: (view) => view.company.name,
    taxId: (view) => view.company.taxId,
    createdAt: (view) => view.company.createdAt.toISOString(),
  },
  CompanySummary: {
    id: (summary) => summary.company.id,
    name: (summary) => summary.company.name,
    taxId: (summary) => summary.company.taxId,
    createdAt: (summary) => summary.company.createdAt.toISOString(),
  },
  CompanyMember: {
    joinedAt: (member) => member.joinedAt.toISOString(),
    orderLimit: (member) => (member.orderLimitCents === null ? null : centsToDollars(member.orderLimitCents)),
  },
  AwaitingApproval: {
    total: (awaiting) => centsToDollars(awaiting.totalCents),
    createdAt: (awaiting) => awaiting.createdAt.toISOString(),
    expiresAt: (awaiting) => awaiting.expiresAt.toISOString(),
  },
  ApprovalBuyer: {
    orderLimit: (buyer) => (buyer.orderLimitCents === null ? null : centsToDollars(buyer.orderLimitCents)),
  },
  CompanyInvitation: {
    createdAt: (invitation) => invitation.createdAt.toISOString(),
    expiresAt: (invitation) => invitation.expiresAt.toISOString(),
  },
};
