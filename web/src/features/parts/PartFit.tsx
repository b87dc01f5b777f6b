import { CurrentBikeChip } from '../../components/garage/CurrentBikeChip';
import { usePartFitQuery, type FitVerdict } from '../../generated/partPage';
import { errorMessage } from '../../lib/apollo';
import { useOptionalGarage } from '../../lib/garage/garage';

/** How each verdict looks: green when it fits, amber when a note must be read, red when it does not fit. */
const verdictStyle: Record<FitVerdict, { alert: string; mark: string }> = {
  FITS: { alert: 'alert-success', mark: '✓' },
  FITS_WITH_NOTE: { alert: 'alert-warning', mark: '!' },
  DOES_NOT_FIT: { alert: 'alert-error', mark: '✕' },
};

/**
 * Whether the part fits the current bike, in the server's words ("Fits your 2019 Honda CRF450R", "Does not fit
 * your ...", "Fits your ... with a note: ..."), with the bike's Change and Clear; without a bike, a button to
 * choose one. The fit is its own query, asked only with a bike, so the part's own answer stays the same for
 * every visitor (and cacheable).
 */
export function PartFit({ partId, universal }: { partId: string; universal: boolean }) {
  const garage = useOptionalGarage();
  const vehicleId = garage?.current?.id ?? null;
  const { data, error } = usePartFitQuery({
    variables: { id: partId, vehicleId: vehicleId ?? '' },
    skip: !vehicleId,
  });
  // While another bike's verdict loads, `data` is empty: the previous bike's is never shown as this one's.
  const fits = vehicleId ? data?.part?.fits : null;

  return (
    <section aria-labelledby="part-fit-heading" className="flex flex-col gap-3">
      <h2 id="part-fit-heading" className="text-lg font-bold">
        Does it fit your bike?
      </h2>
      {universal && (
        <p className="alert alert-info alert-soft" data-testid="part-universal">
          Universal: fits any bike
        </p>
      )}
      <div role="status" aria-live="polite" data-testid="part-fit">
        {!garage || (!vehicleId && garage.loading) ? null : !vehicleId ? (
          !universal && <p className="text-sm text-gray-700">Choose your bike to see whether this part fits it.</p>
        ) : fits ? (
          <p className={`alert ${verdictStyle[fits.verdict].alert} font-semibold`} data-verdict={fits.verdict}>
            <span aria-hidden="true" className="text-lg leading-none">
              {verdictStyle[fits.verdict].mark}
            </span>
            <span className="[overflow-wrap:anywhere]">{fits.message}</span>
          </p>
        ) : error ? (
          <p className="alert alert-error alert-soft">Could not check the fit: {errorMessage(error)}</p>
        ) : (
          <p className="text-sm text-gray-700">
            Checking whether it fits your {garage.current?.name}
            <span className="loading loading-dots loading-xs ml-2 align-middle" aria-hidden="true" />
          </p>
        )}
      </div>
      <div>
        <CurrentBikeChip />
      </div>
    </section>
  );
}
