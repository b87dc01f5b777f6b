import { vehiclePageMeta } from '@partsyard/common';
import { useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useParams } from 'react-router-dom';
import { BusyButton } from '../../components/BusyButton';
import { BikeIcon } from '../../components/garage/BikeIcon';
import { useVehicleBySlugsQuery } from '../../generated/graphql';
import { errorMessage } from '../../lib/apollo';
import { useOptionalGarage } from '../../lib/garage/garage';
import { useOwnPageMeta } from '../../lib/pageMeta';
import { addressStatus } from './catalog/addressStatus';
import { CatalogView } from './catalog/CatalogView';

/** Puts the page's bike in My garage as the current bike, or says it is there. */
function GarageAction({ bike }: { bike: { id: string; name: string } }) {
  const garage = useOptionalGarage();
  const [busy, setBusy] = useState(false);
  if (!garage) return null;
  if (garage.current?.id === bike.id) {
    return (
      <p className="inline-flex items-center gap-2 text-sm font-semibold">
        <BikeIcon className="h-5 w-5" /> Your current bike
      </p>
    );
  }
  const inGarage = garage.bikes.some((b) => b.id === bike.id);
  const act = async () => {
    setBusy(true);
    try {
      if (inGarage) await garage.setCurrent(bike.id);
      else await garage.add({ id: bike.id, name: bike.name }, { makeCurrent: true });
      toast.success(`${bike.name} is your current bike`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <BusyButton type="button" className="btn btn-primary btn-sm gap-2" busy={busy} onClick={() => void act()}>
      {!busy && <BikeIcon className="h-5 w-5" />}
      {inGarage ? 'Make it my current bike' : 'Add to my garage'}
    </BusyButton>
  );
}

/**
 * A bike's page (/bikes/:make/:model/:year and .../:variant), an address a buyer can share: the parts that fit it
 * and universal parts, whatever bike the garage holds, with a button to add it to the garage.
 */
export default function BikePage() {
  const { make = '', model = '', year = '', variant = '' } = useParams();
  const validYear = /^\d{4}$/.test(year);
  const { data, error } = useVehicleBySlugsQuery({
    variables: { make, model, year: Number(year), variant },
    skip: !validYear,
  });
  const vehicle = data?.vehicleBySlugs ?? null;
  useOwnPageMeta(vehicle ? vehiclePageMeta(vehicle) : null);

  const state = addressStatus({
    error: data ? undefined : error,
    loading: validYear && !data,
    found: !!vehicle,
    what: 'bike',
  });
  if (state || !vehicle) return state;
  return (
    <CatalogView
      key={vehicle.id}
      title={`Parts for the ${vehicle.name}`}
      intro={<p>The parts that fit the {vehicle.name}, and universal parts.</p>}
      actions={<GarageAction bike={vehicle} />}
      fixed={{ vehicle }}
    />
  );
}
