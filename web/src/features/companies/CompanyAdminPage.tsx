import { Link, useParams } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { useCompanyQuery } from '../../generated/companies';
import { errorCode, errorMessage } from '../../lib/apollo';
import { CompanyPriceList } from './CompanyPriceList';
import { CompanyView } from './CompanyView';
import { AccountSection, InvoicesSection } from './InvoicesSection';

/** One company for the shop's admins: everything its company admins see and may do. */
export default function CompanyAdminPage() {
  const { companyId = '' } = useParams();
  const { data, loading, error, refetch } = useCompanyQuery({
    variables: { id: companyId },
    fetchPolicy: 'cache-and-network',
  });
  const back = (
    <Link to="/dashboard/companies" className="link link-primary">
      All companies
    </Link>
  );

  if (loading && !data) return <Spinner centered />;
  const company = data?.company;
  if (!company) {
    return (
      <div className="flex flex-col gap-4">
        <p role="alert" className="text-red-600">
          {errorCode(error) === 'NOT_FOUND' ? 'There is no such company.' : errorMessage(error)}
        </p>
        {back}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {back}
      <h2 className="text-2xl font-bold [overflow-wrap:anywhere]">{company.name}</h2>
      <CompanyView
        company={company}
        manage
        refetch={refetch}
        extra={
          <>
            <AccountSection companyId={company.id} manage />
            <InvoicesSection companyId={company.id} manage />
          </>
        }
      />
      <section className="card bg-base-100 shadow-md" aria-labelledby="company-prices-title">
        <div className="card-body gap-4 max-sm:px-4">
          <h3 id="company-prices-title" className="card-title">
            Price list
          </h3>
          <CompanyPriceList companyId={company.id} />
        </div>
      </section>
    </div>
  );
}
