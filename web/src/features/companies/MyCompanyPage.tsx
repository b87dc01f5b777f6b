import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { BusyButton } from '../../components/BusyButton';
import { ConfirmModal } from '../../components/ConfirmModal';
import { Spinner } from '../../components/Spinner';
import {
  MyCompanyDocument,
  useAcceptCompanyInvitationMutation,
  useCreateCompanyMutation,
  useDeclineCompanyInvitationMutation,
  useLeaveCompanyMutation,
  useMyCompanyQuery,
  type CompanyDetailsFragment,
  type InvitationToMeFragment,
  type MyCompanyQuery,
} from '../../generated/companies';
import type { ApolloCache } from '@apollo/client';
import { companyMembershipChanged } from '../../lib/companyPrices';
import { errorMessage } from '../../lib/apollo';
import { CompanyForm } from './companyForms';
import { CompanyView, dayOf } from './CompanyView';
import { AccountSection, InvoicesSection } from './InvoicesSection';
import { roleLabel } from './roles';

/** The caller is now in `company` (created or joined): My Company shows it (invitations no longer show). */
const joined = (cache: ApolloCache<unknown>, company: CompanyDetailsFragment | undefined) => {
  if (company)
    cache.updateQuery<MyCompanyQuery>({ query: MyCompanyDocument }, (current) =>
      current ? { ...current, myCompany: company } : current,
    );
};

/** Open invitations to the caller's verified address: accept (joins the company) or decline. */
function InvitationsToMe({ invitations }: { invitations: InvitationToMeFragment[] }) {
  const [accept] = useAcceptCompanyInvitationMutation({
    update: (cache, { data }) => {
      joined(cache, data?.acceptCompanyInvitation);
      companyMembershipChanged(cache);
    },
  });
  const [decline] = useDeclineCompanyInvitationMutation({
    update: (cache, { data }) => {
      const gone = data?.declineCompanyInvitation.id;
      cache.updateQuery<MyCompanyQuery>({ query: MyCompanyDocument }, (current) =>
        current
          ? { ...current, myCompanyInvitations: current.myCompanyInvitations.filter((i) => i.id !== gone) }
          : current,
      );
    },
  });
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (invitation: InvitationToMeFragment, answer: 'accept' | 'decline') => {
    setBusy(`${answer}-${invitation.id}`);
    try {
      if (answer === 'accept') {
        await accept({ variables: { id: invitation.id } });
        toast.success(`You joined ${invitation.companyName}.`);
      } else {
        await decline({ variables: { id: invitation.id } });
        toast.success(`Invitation from ${invitation.companyName} declined.`);
      }
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  if (invitations.length === 0) return null;
  return (
    <section className="card bg-base-100 shadow-md" aria-labelledby="my-invitations">
      <div className="card-body gap-4 max-sm:px-4">
        <h3 id="my-invitations" className="card-title">
          Invitations
        </h3>
        <ul className="flex flex-col gap-3">
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              data-testid="my-invitation"
              className="flex flex-col gap-3 rounded-box border border-base-300 p-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <p className="[overflow-wrap:anywhere]">
                <strong>{invitation.companyName}</strong> invites you as {roleLabel[invitation.role].toLowerCase()}{' '}
                (open until {dayOf(invitation.expiresAt)}).
              </p>
              <div className="flex gap-2">
                <BusyButton
                  type="button"
                  className="btn btn-primary btn-sm"
                  busy={busy === `accept-${invitation.id}`}
                  disabled={busy !== null}
                  aria-label={`Accept the invitation from ${invitation.companyName}`}
                  onClick={() => void run(invitation, 'accept')}
                >
                  Accept
                </BusyButton>
                <BusyButton
                  type="button"
                  className="btn btn-outline btn-sm"
                  busy={busy === `decline-${invitation.id}`}
                  disabled={busy !== null}
                  aria-label={`Decline the invitation from ${invitation.companyName}`}
                  onClick={() => void run(invitation, 'decline')}
                >
                  Decline
                </BusyButton>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/**
 * My Company (issue 35): a customer in no company sees the invitations to their verified address and can create
 * a company; a member sees their company, managed in full by its company admins, and can leave it.
 */
export default function MyCompanyPage() {
  const { data, loading, error, refetch } = useMyCompanyQuery({ fetchPolicy: 'cache-and-network' });
  const [createCompany] = useCreateCompanyMutation({
    update: (cache, { data: created }) => joined(cache, created?.createCompany),
  });
  const [leaveCompany, { loading: leaving }] = useLeaveCompanyMutation({
    update: (cache) => companyMembershipChanged(cache),
  });
  const [confirmLeave, setConfirmLeave] = useState(false);

  if (loading && !data) return <Spinner centered />;
  if (!data) {
    return (
      <p role="alert" className="text-red-600">
        {errorMessage(error)}
      </p>
    );
  }

  const company = data.myCompany;
  if (!company) {
    return (
      <div className="flex flex-col gap-6">
        <h2 className="text-2xl font-bold">My Company</h2>
        {data.myCompanyInvitations.length > 0 ? (
          <InvitationsToMe invitations={data.myCompanyInvitations} />
        ) : (
          <p className="text-base-content/80">
            No invitations for you. A company&apos;s invitation shows here when you are signed in with the invited email
            address, verified.
          </p>
        )}
        <section className="card bg-base-100 shadow-md" aria-labelledby="create-company">
          <div className="card-body gap-4 max-sm:px-4">
            <h3 id="create-company" className="card-title">
              Create a company
            </h3>
            <p>
              Buy for a workshop or a dealer with your colleagues: you become its company admin and invite them by
              email.
            </p>
            <CompanyForm
              idPrefix="company"
              submitLabel="Create company"
              onSubmit={async (input) => {
                await createCompany({ variables: { input } });
                toast.success(`${input.name} is created: you are its company admin.`);
              }}
            />
          </div>
        </section>
      </div>
    );
  }

  const leave = async () => {
    try {
      await leaveCompany();
      toast.success(`You left ${company.name}.`);
      setConfirmLeave(false);
      await refetch();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <h2 className="text-2xl font-bold [overflow-wrap:anywhere]">My Company: {company.name}</h2>
      <CompanyView
        company={company}
        manage={company.myRole === 'COMPANY_ADMIN'}
        refetch={refetch}
        extra={
          <>
            <AccountSection companyId={company.id} />
            <InvoicesSection companyId={company.id} />
          </>
        }
        footer={
          <div>
            <button type="button" className="btn btn-outline btn-error" onClick={() => setConfirmLeave(true)}>
              Leave company
            </button>
          </div>
        }
      />
      <ConfirmModal
        open={confirmLeave}
        title="Leave this company?"
        body={`You no longer buy for ${company.name}; a company admin must invite you again to rejoin.`}
        confirmLabel="Leave company"
        cancelLabel="Stay"
        busy={leaving}
        onConfirm={() => void leave()}
        onClose={() => setConfirmLeave(false)}
      />
    </div>
  );
}
