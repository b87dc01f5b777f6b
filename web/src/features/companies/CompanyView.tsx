import { useState, type ReactNode } from 'react';
import { toast } from 'react-hot-toast/headless';
import { ConfirmModal } from '../../components/ConfirmModal';
import { Cell, StackedTable } from '../../components/StackedTable';
import {
  useAddCompanyAddressMutation,
  useInviteToCompanyMutation,
  useRemoveCompanyAddressMutation,
  useRemoveCompanyMemberMutation,
  useSetCompanyBuyerLimitMutation,
  useSetCompanyMemberRoleMutation,
  useUpdateCompanyMutation,
  useWithdrawCompanyInvitationMutation,
  type CompanyDetailsFragment,
  type CompanyRole,
} from '../../generated/companies';
import { errorMessage } from '../../lib/apollo';
import { ApprovalsSection } from './ApprovalsSection';
import { AddressForm, BuyerLimitForm, CompanyForm, InviteForm } from './companyForms';
import { companyRoles, roleLabel } from './roles';

type Member = CompanyDetailsFragment['members'][number];
type Address = CompanyDetailsFragment['addresses'][number];
type Invitation = CompanyDetailsFragment['invitations'][number];

/** A date of the API (ISO 8601) as the visitor's locale writes a day. */
export const dayOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card bg-base-100 shadow-md" aria-label={title}>
      <div className="card-body gap-4 max-sm:px-4">
        <h3 className="card-title">{title}</h3>
        {children}
      </div>
    </section>
  );
}

interface CompanyViewProps {
  company: CompanyDetailsFragment;
  /** The caller manages the company (its company admin, or a shop admin): every control shows. */
  manage: boolean;
  /** Fetches the company again (after an invitation is sent or withdrawn: those answer the invitation alone). */
  refetch: () => Promise<unknown>;
  /** What stands under the company (My Company's "Leave company"). */
  footer?: ReactNode;
  /** Sections after the company's own (pay on account: its terms and invoices). */
  extra?: ReactNode;
}

/**
 * One company: its name and tax number, its addresses, and for those who manage it its members (role, removal),
 * its open invitations and the invite form. The server decides every change; a refusal (the last company admin,
 * say) is toasted and the page shows what the server holds.
 */
export function CompanyView({ company, manage, refetch, footer, extra }: CompanyViewProps) {
  const id = company.id;
  const [editing, setEditing] = useState(false);
  const [updateCompany] = useUpdateCompanyMutation();
  const [addAddress] = useAddCompanyAddressMutation();
  const [removeAddress, { loading: removingAddress }] = useRemoveCompanyAddressMutation();
  const [invite] = useInviteToCompanyMutation();
  const [withdraw, { loading: withdrawing }] = useWithdrawCompanyInvitationMutation();
  const [setRole] = useSetCompanyMemberRoleMutation();
  const [removeMember, { loading: removingMember }] = useRemoveCompanyMemberMutation();
  const [setLimit] = useSetCompanyBuyerLimitMutation();
  const [roleBusy, setRoleBusy] = useState<string | null>(null);
  const [addressToRemove, setAddressToRemove] = useState<Address | null>(null);
  const [memberToRemove, setMemberToRemove] = useState<Member | null>(null);
  const [invitationToWithdraw, setInvitationToWithdraw] = useState<Invitation | null>(null);

  /** Runs a confirmed action: a toast either way; the dialog closes when it succeeded. */
  const act = async (run: () => Promise<unknown>, success: string, close: () => void) => {
    try {
      await run();
      toast.success(success);
      close();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  const changeRole = async (member: Member, role: CompanyRole) => {
    setRoleBusy(member.userId);
    try {
      await setRole({ variables: { id, userId: member.userId, role } });
      toast.success(`${member.name || member.email || 'The member'} is now ${roleLabel[role].toLowerCase()}.`);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setRoleBusy(null);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <Section title="Company">
        <dl className="grid gap-2 sm:grid-cols-[10rem_1fr]">
          <dt className="font-semibold text-gray-700">Name</dt>
          <dd className="[overflow-wrap:anywhere]">{company.name}</dd>
          <dt className="font-semibold text-gray-700">Tax number</dt>
          <dd className="[overflow-wrap:anywhere]">{company.taxId}</dd>
          {company.myRole && (
            <>
              <dt className="font-semibold text-gray-700">Your role</dt>
              <dd>{roleLabel[company.myRole]}</dd>
            </>
          )}
        </dl>
        {manage && (
          <button
            type="button"
            className="btn btn-outline btn-primary self-start"
            aria-expanded={editing}
            onClick={() => setEditing((open) => !open)}
          >
            Edit details
          </button>
        )}
        {manage && editing && (
          <CompanyForm
            idPrefix="edit-company"
            initial={{ name: company.name, taxId: company.taxId }}
            submitLabel="Save details"
            onSubmit={async (input) => {
              await updateCompany({ variables: { id, input } });
              toast.success('Company details saved.');
              setEditing(false);
            }}
          />
        )}
      </Section>

      <Section title="Addresses">
        {company.addresses.length === 0 ? (
          <p className="text-base-content/80">No delivery addresses yet.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {company.addresses.map((address) => (
              <li key={address.id} className="rounded-box border border-base-300 p-3">
                <p className="font-semibold [overflow-wrap:anywhere]">{address.label}</p>
                <p className="whitespace-pre-line [overflow-wrap:anywhere]">{address.address}</p>
                {manage && (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm mt-2 text-red-700"
                    aria-label={`Remove the address ${address.label}`}
                    onClick={() => setAddressToRemove(address)}
                  >
                    Remove
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {manage && <AddressForm onSubmit={(input) => addAddress({ variables: { id, input } })} />}
      </Section>

      {manage && (
        <Section title="Members">
          {company.members.length === 0 ? (
            <p className="text-base-content/80">No members.</p>
          ) : (
            <StackedTable>
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Email</th>
                  <th>Role</th>
                  <th>Limit per order</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {company.members.map((member) => {
                  const who = member.name || member.email || 'this member';
                  return (
                    <tr key={member.userId} data-testid="member-row">
                      <Cell label="Name" className="[overflow-wrap:anywhere]">
                        {member.name || '—'}
                      </Cell>
                      <Cell label="Email" className="[overflow-wrap:anywhere]">
                        {member.email ?? '—'}
                      </Cell>
                      <Cell label="Role">
                        <select
                          className="select select-sm"
                          aria-label={`Role of ${who}`}
                          value={member.role}
                          disabled={roleBusy === member.userId}
                          onChange={(e) => void changeRole(member, e.target.value as CompanyRole)}
                        >
                          {companyRoles.map((role) => (
                            <option key={role} value={role}>
                              {roleLabel[role]}
                            </option>
                          ))}
                        </select>
                      </Cell>
                      <Cell label="Limit per order">
                        {member.role === 'BUYER' ? (
                          <BuyerLimitForm
                            userId={member.userId}
                            who={who}
                            limit={member.orderLimit}
                            onSubmit={(orderLimit) =>
                              setLimit({
                                variables: { id, userId: member.userId, orderLimit },
                              })
                            }
                          />
                        ) : (
                          <span className="text-sm text-base-content/80">None (a company admin approves)</span>
                        )}
                      </Cell>
                      <Cell label="">
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm text-red-700"
                          aria-label={`Remove ${who} from the company`}
                          onClick={() => setMemberToRemove(member)}
                        >
                          Remove
                        </button>
                      </Cell>
                    </tr>
                  );
                })}
              </tbody>
            </StackedTable>
          )}
        </Section>
      )}

      {manage && <ApprovalsSection companyId={id} />}

      {manage && (
        <Section title="Invitations">
          {company.invitations.length === 0 ? (
            <p className="text-base-content/80">No invitations waiting.</p>
          ) : (
            <StackedTable>
              <thead>
                <tr>
                  <th>Email</th>
                  <th>Role</th>
                  <th>Open until</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {company.invitations.map((invitation) => (
                  <tr key={invitation.id} data-testid="invitation-row">
                    <Cell label="Email" className="[overflow-wrap:anywhere]">
                      {invitation.email}
                    </Cell>
                    <Cell label="Role">{roleLabel[invitation.role]}</Cell>
                    <Cell label="Open until">{dayOf(invitation.expiresAt)}</Cell>
                    <Cell label="">
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        aria-label={`Withdraw the invitation to ${invitation.email}`}
                        onClick={() => setInvitationToWithdraw(invitation)}
                      >
                        Withdraw
                      </button>
                    </Cell>
                  </tr>
                ))}
              </tbody>
            </StackedTable>
          )}
          <h4 className="font-semibold">Invite a colleague</h4>
          <InviteForm
            onSubmit={async ({ email, role }) => {
              await invite({ variables: { id, email, role } });
              await refetch();
            }}
          />
        </Section>
      )}

      {extra}
      {footer}

      <ConfirmModal
        open={addressToRemove !== null}
        title="Remove this address?"
        body={addressToRemove ? `"${addressToRemove.label}" is no longer one of the company's addresses.` : undefined}
        confirmLabel="Remove"
        busy={removingAddress}
        onConfirm={() => {
          const address = addressToRemove;
          if (address)
            void act(
              () => removeAddress({ variables: { id, addressId: address.id } }),
              'Address removed.',
              () => setAddressToRemove(null),
            );
        }}
        onClose={() => setAddressToRemove(null)}
      />
      <ConfirmModal
        open={memberToRemove !== null}
        title="Remove this member?"
        body={
          memberToRemove
            ? `${memberToRemove.name || memberToRemove.email || 'The member'} no longer buys for ${company.name}, at once.`
            : undefined
        }
        confirmLabel="Remove"
        busy={removingMember}
        onConfirm={() => {
          const member = memberToRemove;
          if (member)
            void act(
              () => removeMember({ variables: { id, userId: member.userId } }),
              'Member removed.',
              () => setMemberToRemove(null),
            );
        }}
        onClose={() => setMemberToRemove(null)}
      />
      <ConfirmModal
        open={invitationToWithdraw !== null}
        title="Withdraw this invitation?"
        body={invitationToWithdraw ? `${invitationToWithdraw.email} can no longer accept it.` : undefined}
        confirmLabel="Withdraw"
        cancelLabel="Keep it"
        busy={withdrawing}
        onConfirm={() => {
          const invitation = invitationToWithdraw;
          if (invitation)
            void act(
              async () => {
                await withdraw({ variables: { id: invitation.id } });
                await refetch();
              },
              'Invitation withdrawn.',
              () => setInvitationToWithdraw(null),
            );
        }}
        onClose={() => setInvitationToWithdraw(null)}
      />
    </div>
  );
}
