import { profileSchema } from '@partsyard/common';
import { Formik, type FormikHelpers } from 'formik';
import { useState, type ReactNode } from 'react';
import { toast } from 'react-hot-toast/headless';
import { FormField, ShopForm } from '../../components/form/ShopForm';
import { defaultAvatar } from '../../components/Header';
import { Spinner } from '../../components/Spinner';
import { MeDocument, useMeQuery, useUpdateProfileMutation, type MeQuery } from '../../generated/graphql';
import { errorMessage, fieldErrors } from '../../lib/apollo';
import { useAuth } from '../../lib/auth';
import { BusyButton } from '../../components/BusyButton';

interface ProfileValues {
  phone: string;
  education: string;
  location: string;
  linkedIn: string;
}

/** One line of the profile; an empty value shows its placeholder in grey. */
function ProfileLine({ label, value, placeholder }: { label: string; value: ReactNode; placeholder: string }) {
  return (
    <div className="flex flex-col gap-1 border-b border-base-200 py-3 sm:flex-row sm:gap-4">
      <dt className="w-32 shrink-0 font-semibold text-gray-700">{label}</dt>
      {/* Long words (an email, an address) wrap where they must, not at every letter. */}
      <dd className="min-w-0 [overflow-wrap:anywhere]">
        {value || <span className="text-gray-600 italic">{placeholder}</span>}
      </dd>
    </div>
  );
}

/** The signed-in user's profile (spec "My Profile"), the dashboard's index page. */
export default function MyProfilePage() {
  const { user } = useAuth();
  const { data, loading, error } = useMeQuery({ fetchPolicy: 'cache-and-network' });
  const [updateProfile] = useUpdateProfileMutation({
    update: (cache, { data: updated }) => {
      if (updated) cache.writeQuery<MeQuery>({ query: MeDocument, data: { me: updated.updateProfile } });
    },
  });
  const [editing, setEditing] = useState(false);

  if (loading && !data) return <Spinner centered />;
  const me = data?.me;
  if (!me) {
    return (
      <p role="alert" className="text-red-600">
        {errorMessage(error)}
      </p>
    );
  }

  const name = me.name || user?.displayName || '';
  const avatar = me.avatar || user?.photoURL || defaultAvatar;

  const submit = async (values: ProfileValues, helpers: FormikHelpers<ProfileValues>) => {
    try {
      await updateProfile({
        variables: {
          input: {
            phone: values.phone.trim(),
            education: values.education.trim(),
            location: values.location.trim(),
            linkedIn: values.linkedIn.trim(),
          },
        },
      });
      toast.success('Profile updated.');
      setEditing(false);
    } catch (e) {
      const fields = fieldErrors(e);
      if (Object.keys(fields).length > 0) helpers.setErrors(fields);
      else toast.error(errorMessage(e));
    }
  };

  return (
    <section className="flex flex-col gap-6">
      <div className="card bg-base-100 shadow-md">
        <div className="card-body gap-4">
          <div className="flex flex-col items-center gap-4 sm:flex-row">
            <div className="avatar">
              <div className="w-24 rounded-full ring ring-primary ring-offset-2 ring-offset-base-100">
                <img
                  src={avatar}
                  alt={`${name || 'Your'} avatar`}
                  width={96}
                  height={96}
                  referrerPolicy="no-referrer"
                  onError={(e) => {
                    if (!e.currentTarget.src.endsWith(defaultAvatar)) e.currentTarget.src = defaultAvatar;
                  }}
                />
              </div>
            </div>
            <h2 className="text-2xl font-bold [overflow-wrap:anywhere]">Hello, {name}</h2>
          </div>
          <dl>
            <ProfileLine label="Full Name" value={name} placeholder="Please provide your name" />
            <ProfileLine label="Email" value={me.email} placeholder="" />
            <ProfileLine label="Phone" value={me.phone} placeholder="Please provide phone number" />
            <ProfileLine label="Education" value={me.education} placeholder="Please provide your education" />
            <ProfileLine label="Location" value={me.location} placeholder="Please provide your location" />
            <ProfileLine
              label="LinkedIn"
              value={
                me.linkedIn && /^https?:\/\//i.test(me.linkedIn) ? (
                  <a href={me.linkedIn} target="_blank" rel="noreferrer" className="link link-primary">
                    {me.linkedIn}
                  </a>
                ) : (
                  me.linkedIn
                )
              }
              placeholder="Please provide your LinkedIn profile"
            />
          </dl>
          <button
            type="button"
            className="btn btn-outline btn-primary self-start"
            aria-expanded={editing}
            onClick={() => setEditing((open) => !open)}
          >
            Edit profile
          </button>
        </div>
      </div>

      {editing && (
        <div className="card bg-base-100 shadow-md">
          <div className="card-body">
            <h3 className="card-title">Edit profile</h3>
            <Formik<ProfileValues>
              initialValues={{ phone: me.phone, education: me.education, location: me.location, linkedIn: me.linkedIn }}
              validationSchema={profileSchema}
              onSubmit={submit}
            >
              {({ isSubmitting }) => (
                <ShopForm className="grid gap-3 sm:grid-cols-2">
                  <FormField name="phone" label="Phone" type="tel" autoComplete="tel" />
                  <FormField name="education" label="Education" />
                  <FormField name="location" label="Location" autoComplete="address-level2" />
                  <FormField
                    name="linkedIn"
                    label="LinkedIn"
                    type="url"
                    placeholder="https://www.linkedin.com/in/..."
                  />
                  <BusyButton className="btn btn-primary sm:col-span-2" busy={isSubmitting}>
                    Update Info
                  </BusyButton>
                </ShopForm>
              )}
            </Formik>
          </div>
        </div>
      )}
    </section>
  );
}
