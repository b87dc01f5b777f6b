import { and, eq } from 'drizzle-orm';
import { companyMessages } from '../../src/companies/companiesService';
import { companyInvitations } from '../../src/companies/companiesSchema';
import { outbox } from '../../src/db/schema';
import type { Actor } from '../../src/services/actor';
import { actorOf, expectAppError, signUp } from '../services/helpers';
import { databaseKinds } from '../support/env';
import { startTestApp, type TestApp } from '../support/testApp';

/**
 * Issue 35 point 1: companies, their members and roles, and invitations taken only by the account that signs in
 * with the invited address verified; through the services.
 */
describe.each(databaseKinds)('companies (%s)', (kind) => {
  let app: TestApp;
  let shopAdmin: Actor;

  beforeAll(async () => {
    app = await startTestApp(kind);
    shopAdmin = await actorOf(app, await signUp(app, { admin: true }));
  });
  afterAll(() => app?.close());

  const companies = () => app.server.services.companies;
  const db = () => app.server.database.db;
  let serial = 0;
  const unique = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;
  const account = async (options: { verified?: boolean; email?: string } = {}) => {
    const user = await signUp(app, { verified: true, ...options });
    return { user, actor: await actorOf(app, user) };
  };
  const newCompany = async () => {
    const owner = await account();
    const view = await companies().createCompany(owner.actor, { name: `Moto Works ${unique()}`, taxId: 'BIN 123-456' });
    return { owner, id: view.company.id, view };
  };
  /** Invites a new verified account as `role` and has it accept: the member's actor. */
  const addMember = async (companyId: string, by: Actor, role: 'buyer' | 'company_admin' = 'buyer') => {
    const member = await account();
    const invitation = await companies().inviteToCompany(by, companyId, { email: member.user.email, role });
    await companies().acceptInvitation(member.actor, invitation.id);
    return member.actor;
  };

  it('a customer creates a company and becomes its company admin; bad names and tax numbers say why and change nothing', async () => {
    const { owner, view } = await newCompany();
    expect(view.myRole).toBe('company_admin');
    expect(view.members.map((m) => [m.userId, m.role])).toEqual([[owner.actor.userId, 'company_admin']]);
    expect((await companies().myCompany(owner.actor))?.company.id).toBe(view.company.id);
    // One company per account.
    const again = await expectAppError(
      companies().createCompany(owner.actor, { name: 'Second', taxId: 'X1' }),
      'CONFLICT',
    );
    expect(again.message).toBe(companyMessages.alreadyInCompany);

    const other = await account();
    for (const [input, field, message] of [
      [{ name: '  ', taxId: 'X1' }, 'name', companyMessages.nameRequired],
      [{ name: 'a'.repeat(201), taxId: 'X1' }, 'name', companyMessages.nameTooLong],
      [{ name: 'Ok\u0000', taxId: 'X1' }, 'name', companyMessages.textControl],
      [{ name: 'Ok', taxId: '' }, 'taxId', companyMessages.taxIdRequired],
      [{ name: 'Ok', taxId: '=HYPERLINK("x")' }, 'taxId', companyMessages.taxIdInvalid],
      [{ name: { a: 1 }, taxId: 'X1' }, 'name', companyMessages.nameRequired],
    ] as const) {
      const refused = await expectAppError(companies().createCompany(other.actor, input), 'BAD_USER_INPUT');
      expect(refused.fields).toEqual({ [field]: message });
    }
    expect(await companies().myCompany(other.actor)).toBeNull();
    // Two creations at once by one account make one company.
    const racer = await account();
    const results = await Promise.allSettled([
      companies().createCompany(racer.actor, { name: `Race A ${unique()}`, taxId: 'R1' }),
      companies().createCompany(racer.actor, { name: `Race B ${unique()}`, taxId: 'R2' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    // A shop admin does not join companies.
    await expectAppError(companies().createCompany(shopAdmin, { name: 'Admin Co', taxId: 'A1' }), 'FORBIDDEN');
  });

  it('an invitation is taken only by the account signed in with that address, verified, and only once', async () => {
    const { owner, id } = await newCompany();
    const email = `buyer-${unique()}@example.com`;
    const invitation = await companies().inviteToCompany(owner.actor, id, {
      email: email.toUpperCase(),
      role: 'buyer',
    });
    expect(invitation).toMatchObject({ email, role: 'buyer', status: 'pending' });
    // The email went out, in the invitation's transaction.
    const [mail] = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, 'company_invitation'), eq(outbox.toAddress, email)));
    expect(mail.subject).toContain('You are invited to buy for Moto Works');
    expect(mail.text).toContain('sign in to PartsYard with this email address (verified)');

    // Another account (another address) cannot take it, nor see it.
    const stranger = await account();
    expect(await companies().myInvitations(stranger.actor)).toEqual([]);
    expect(
      (await expectAppError(companies().acceptInvitation(stranger.actor, invitation.id), 'FORBIDDEN')).message,
    ).toBe(companyMessages.invitationNotYours);
    // The account with the same address, unverified, sees nothing and cannot take it.
    const unverified = await account({ email, verified: false });
    expect(await companies().myInvitations(unverified.actor)).toEqual([]);
    expect(
      (await expectAppError(companies().acceptInvitation(unverified.actor, invitation.id), 'FORBIDDEN')).message,
    ).toBe(companyMessages.verifyFirst);
    expect(await companies().myCompany(unverified.actor)).toBeNull();
  });

  it('the verified addressee sees and accepts it and joins with its role; a second accept, a withdrawn or a declined one is refused', async () => {
    const { owner, id } = await newCompany();
    const buyer = await account();
    const invitation = await companies().inviteToCompany(owner.actor, id, { email: buyer.user.email, role: 'buyer' });
    const mine = await companies().myInvitations(buyer.actor);
    expect(mine.map((i) => [i.id, i.companyName.startsWith('Moto Works')])).toEqual([[invitation.id, true]]);
    // Accepted twice at once: one joins, the other is told the invitation is closed.
    const results = await Promise.allSettled([
      companies().acceptInvitation(buyer.actor, invitation.id),
      companies().acceptInvitation(buyer.actor, invitation.id),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const joined = await companies().myCompany(buyer.actor);
    expect(joined).toMatchObject({ company: { id }, myRole: 'buyer', members: [], invitations: [] });
    // A buyer sees the company, not its members.
    expect((await companies().company(buyer.actor, id)).members).toEqual([]);
    expect((await companies().company(owner.actor, id)).members.map((m) => m.role).sort()).toEqual([
      'buyer',
      'company_admin',
    ]);
    // Inviting a member again is refused; so is a second open invitation to one address.
    expect(
      (
        await expectAppError(
          companies().inviteToCompany(owner.actor, id, { email: buyer.user.email, role: 'buyer' }),
          'BAD_USER_INPUT',
        )
      ).fields,
    ).toEqual({ email: companyMessages.memberAlready });
    const next = `next-${unique()}@example.com`;
    const open = await companies().inviteToCompany(owner.actor, id, { email: next, role: 'buyer' });
    expect(
      (
        await expectAppError(
          companies().inviteToCompany(owner.actor, id, { email: next, role: 'buyer' }),
          'BAD_USER_INPUT',
        )
      ).fields,
    ).toEqual({ email: companyMessages.invitedAlready });
    // Withdrawn: the addressee can no longer take it.
    await companies().withdrawInvitation(owner.actor, open.id);
    const late = await account({ email: next });
    expect(await companies().myInvitations(late.actor)).toEqual([]);
    await expectAppError(companies().acceptInvitation(late.actor, open.id), 'CONFLICT');
    // Declined: closed too.
    const third = await account();
    const declined = await companies().inviteToCompany(owner.actor, id, { email: third.user.email, role: 'buyer' });
    await companies().declineInvitation(third.actor, declined.id);
    await expectAppError(companies().acceptInvitation(third.actor, declined.id), 'CONFLICT');
    // Expired: closed.
    const fourth = await account();
    const expired = await companies().inviteToCompany(owner.actor, id, { email: fourth.user.email, role: 'buyer' });
    await db()
      .update(companyInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(companyInvitations.id, expired.id));
    expect(await companies().myInvitations(fourth.actor)).toEqual([]);
    await expectAppError(companies().acceptInvitation(fourth.actor, expired.id), 'CONFLICT');
  });

  it('only company admins (and shop admins) manage members, addresses and invitations; a buyer or a stranger is refused', async () => {
    const { owner, id } = await newCompany();
    const buyer = await addMember(id, owner.actor);
    const stranger = (await account()).actor;
    const other = await newCompany();
    for (const caller of [buyer, stranger, other.owner.actor]) {
      await expectAppError(
        companies().inviteToCompany(caller, id, { email: `x-${unique()}@example.com`, role: 'buyer' }),
        'FORBIDDEN',
      );
      await expectAppError(
        companies().addCompanyAddress(caller, id, { label: 'Back door', address: '1 Road' }),
        'FORBIDDEN',
      );
      await expectAppError(companies().updateCompany(caller, id, { name: 'Taken over' }), 'FORBIDDEN');
      await expectAppError(companies().setMemberRole(caller, id, owner.actor.userId, 'buyer'), 'FORBIDDEN');
      await expectAppError(companies().removeMember(caller, id, owner.actor.userId), 'FORBIDDEN');
    }
    // Strangers and another company's admin do not even read it.
    await expectAppError(companies().company(stranger, id), 'FORBIDDEN');
    await expectAppError(companies().company(other.owner.actor, id), 'FORBIDDEN');
    await expectAppError(companies().company(stranger, 'not-an-id'), 'NOT_FOUND');
    // The shop's admins see every company and manage it.
    const seen = await companies().company(shopAdmin, id);
    expect(seen.myRole).toBeNull();
    expect(seen.members).toHaveLength(2);
    const listed = await companies().listCompanies(shopAdmin, { search: seen.company.name });
    expect(listed.items.map((c) => [c.company.id, c.memberCount])).toEqual([[id, 2]]);
    await expectAppError(companies().listCompanies(owner.actor, {}), 'FORBIDDEN');
    const renamed = await companies().updateCompany(shopAdmin, id, { name: `${seen.company.name} Ltd` });
    expect(renamed.company.name).toMatch(/ Ltd$/);
  });

  it('addresses: several, labels unique whatever their case, at most 20', async () => {
    const { owner, id } = await newCompany();
    await companies().addCompanyAddress(owner.actor, id, { label: 'Main workshop', address: '12 Gear St\nDhaka 1207' });
    const refused = await expectAppError(
      companies().addCompanyAddress(owner.actor, id, { label: 'MAIN WORKSHOP', address: 'Elsewhere' }),
      'BAD_USER_INPUT',
    );
    expect(refused.fields).toEqual({ label: companyMessages.labelTaken });
    for (let i = 1; i < 20; i++)
      await companies().addCompanyAddress(owner.actor, id, { label: `Depot ${i}`, address: `${i} Depot Road` });
    expect(
      (
        await expectAppError(
          companies().addCompanyAddress(owner.actor, id, { label: 'One more', address: 'x' }),
          'BAD_USER_INPUT',
        )
      ).fields,
    ).toEqual({ address: companyMessages.tooManyAddresses });
    const view = await companies().company(owner.actor, id);
    expect(view.addresses).toHaveLength(20);
    const after = await companies().removeCompanyAddress(owner.actor, id, view.addresses[0].id);
    expect(after.addresses.map((a) => a.label)).not.toContain('Main workshop');
    await expectAppError(companies().removeCompanyAddress(owner.actor, id, view.addresses[0].id), 'NOT_FOUND');
    // Another company's address cannot be removed through this one.
    const other = await newCompany();
    await companies().addCompanyAddress(other.owner.actor, other.id, { label: 'Theirs', address: '9 Road' });
    const theirs = (await companies().company(other.owner.actor, other.id)).addresses[0];
    await expectAppError(companies().removeCompanyAddress(owner.actor, id, theirs.id), 'NOT_FOUND');
  });

  it('a member removed loses access at once; the last company admin cannot leave, be removed or demoted, even by two admins at once', async () => {
    const { owner, id } = await newCompany();
    const buyer = await addMember(id, owner.actor);
    await companies().removeMember(owner.actor, id, buyer.userId);
    expect(await companies().myCompany(buyer)).toBeNull();
    await expectAppError(companies().company(buyer, id), 'FORBIDDEN');

    expect((await expectAppError(companies().leaveCompany(owner.actor), 'CONFLICT')).message).toBe(
      companyMessages.lastAdmin,
    );
    await expectAppError(companies().setMemberRole(owner.actor, id, owner.actor.userId, 'buyer'), 'CONFLICT');
    await expectAppError(companies().removeMember(shopAdmin, id, owner.actor.userId), 'CONFLICT');

    // Two company admins demote each other at once: one wins, the company keeps an admin.
    const second = await addMember(id, owner.actor, 'company_admin');
    const results = await Promise.allSettled([
      companies().setMemberRole(owner.actor, id, second.userId, 'buyer'),
      companies().setMemberRole(second, id, owner.actor.userId, 'buyer'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const members = (await companies().company(shopAdmin, id)).members;
    expect(members.filter((m) => m.role === 'company_admin')).toHaveLength(1);
    // Two company admins leave at once: one stays.
    const promoted = members.find((m) => m.role === 'buyer');
    await companies().setMemberRole(shopAdmin, id, promoted!.userId, 'company_admin');
    expect((await companies().company(shopAdmin, id)).members.every((m) => m.role === 'company_admin')).toBe(true);
    const leaving = [owner.actor, second];
    const left = await Promise.allSettled(leaving.map((a) => companies().leaveCompany(a)));
    expect(left.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await companies().company(shopAdmin, id)).members.filter((m) => m.role === 'company_admin')).toHaveLength(
      1,
    );
  });
});
