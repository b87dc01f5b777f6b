import { useId, useState } from 'react';
import { toast } from 'react-hot-toast/headless';
import { Link, useLocation } from 'react-router-dom';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/apollo';
import { useGarage, type GarageBike } from '../../lib/garage/garage';
import { VehiclePicker } from './VehiclePicker';

/** One bike of the garage: its name, whether it is current, and what can be done with it. */
function BikeRow({ bike, current }: { bike: GarageBike; current: boolean }) {
  const garage = useGarage();
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      toast.success(done);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:gap-2" data-testid="garage-bike">
      <span className="flex min-w-0 flex-1 flex-wrap items-center gap-2 font-semibold [overflow-wrap:anywhere]">
        {bike.name}
        {current && <span className="badge badge-primary badge-sm">Current</span>}
      </span>
      <span className="flex flex-wrap gap-1">
        {current ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={busy}
            onClick={() => void act(() => garage.setCurrent(null), `You are no longer shopping for the ${bike.name}`)}
          >
            <span className="sr-only">{bike.name}: </span>Clear current bike
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={busy}
            onClick={() => void act(() => garage.setCurrent(bike.id), `${bike.name} is your current bike`)}
          >
            <span className="sr-only">{bike.name}: </span>Make current
          </button>
        )}
        <button
          type="button"
          className="btn btn-ghost btn-sm text-red-800"
          disabled={busy}
          onClick={() => void act(() => garage.remove(bike.id), `${bike.name} left your garage`)}
        >
          <span className="sr-only">{bike.name}: </span>Remove
        </button>
      </span>
    </li>
  );
}

/**
 * My garage in a dialog (issue 33 point 3): the bikes, which one is current (make current, clear, remove), and the
 * vehicle picker to add one, which becomes the current bike. Loaded on demand (GarageProvider), so that no page's
 * first download carries it.
 */
export default function GarageDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const garage = useGarage();
  const location = useLocation();
  const titleId = useId();
  const bikesId = useId();
  const addId = useId();
  const onLoginPage = ['/login', '/signup'].includes(location.pathname);
  return (
    <Modal open={open} onClose={onClose} labelledBy={titleId} className="modal modal-bottom sm:modal-middle">
      <div className="modal-box flex max-w-lg flex-col gap-4" data-testid="garage-dialog">
        <div className="flex items-center justify-between gap-2">
          <h2 id={titleId} className="text-lg font-bold">
            My garage
          </h2>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClose}>
            Close
          </button>
        </div>
        <p>
          {garage.current ? (
            <>
              Shopping for your <strong>{garage.current.name}</strong>.
            </>
          ) : (
            'Choose the bike you are buying for, and the shop shows what fits it.'
          )}
        </p>
        {garage.bikes.length > 0 && (
          <section aria-labelledby={bikesId}>
            <h3 id={bikesId} className="font-bold">
              Your bikes
            </h3>
            <ul className="divide-y divide-base-300">
              {garage.bikes.map((bike) => (
                <BikeRow key={bike.id} bike={bike} current={bike.id === garage.current?.id} />
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby={addId} className="flex flex-col gap-2">
          <h3 id={addId} className="font-bold">
            Add a bike
          </h3>
          {open && (
            <VehiclePicker
              onChoose={async (bike) => {
                await garage.add(bike, { makeCurrent: true });
                toast.success(`${bike.name} is your current bike`);
                onClose();
              }}
            />
          )}
        </section>
        {garage.kind === 'visitor' && (
          <p className="text-sm text-base-content/80">
            Your garage is kept in this browser.{' '}
            {onLoginPage ? (
              'Log in to keep it on your account.'
            ) : (
              <Link to="/login" state={{ from: location }} className="link" onClick={onClose}>
                Log in to keep it on your account.
              </Link>
            )}
          </p>
        )}
      </div>
    </Modal>
  );
}
