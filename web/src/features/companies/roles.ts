import type { CompanyRole } from '../../generated/companies';

/** How a company role reads on the pages. */
export const roleLabel: Record<CompanyRole, string> = { COMPANY_ADMIN: 'Company admin', BUYER: 'Buyer' };

export const companyRoles: CompanyRole[] = ['BUYER', 'COMPANY_ADMIN'];
