import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { toast } from 'react-hot-toast/headless';
import { GarageContext, type GarageContextValue } from '../../lib/garage/garage';
import { useGarageStore } from '../../lib/garage/useGarageStore';
import { GarageMerger } from './GarageMerger';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  /** Called instead when the dialog's code could not be fetched. */
  onUnavailable: () => void;
}

const loadDialog = () => import('./GarageDialog');

/** Said when the dialog's code could not be fetched (offline): the next opening tries again. */
function DialogUnavailable({ onUnavailable }: DialogProps) {
  useEffect(() => {
    toast.error('My garage could not open: check your connection and try again');
    onUnavailable();
  }, [onUnavailable]);
  return null;
}

const lazyDialog = () =>
  lazy((): Promise<{ default: ComponentType<DialogProps> }> =>
    loadDialog().catch(() => ({ default: DialogUnavailable })),
  );

/**
 * My garage for every page (issue 33 point 3): the garage's state (useGarageStore) given to the header's button,
 * the catalog's chip and anything that filters by the current bike (lib/garage: `useGarage`, `useCurrentVehicleId`);
 * the merge of a visitor's garage at sign-in; and the dialog with the bikes and the vehicle picker. The dialog is
 * its own chunk, fetched when a garage button is first pointed at or focused, so that no page's first download
 * carries it.
 */
export function GarageProvider({ children }: { children: ReactNode }) {
  const store = useGarageStore();
  const [open, setOpen] = useState(false);
  const [Dialog, setDialog] = useState(() => lazyDialog());
  const [mounted, setMounted] = useState(false);
  const openGarage = useCallback(() => {
    setMounted(true);
    setOpen(true);
  }, []);
  const prepareGarage = useCallback(() => {
    loadDialog().catch(() => {}); // opening it says so, and tries again
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const closeUnavailable = useCallback(() => {
    setOpen(false);
    setMounted(false);
    setDialog(() => lazyDialog());
  }, []);
  const value = useMemo(
    (): GarageContextValue => ({ ...store, openGarage, prepareGarage }),
    [store, openGarage, prepareGarage],
  );
  return (
    <GarageContext.Provider value={value}>
      {children}
      <GarageMerger />
      {mounted && (
        <Suspense
          fallback={
            <p
              role="status"
              className="fixed inset-x-0 top-20 z-50 mx-auto w-fit rounded-box bg-base-100 px-4 py-2 shadow-lg"
            >
              Opening My garage…
            </p>
          }
        >
          <Dialog open={open} onClose={close} onUnavailable={closeUnavailable} />
        </Suspense>
      )}
    </GarageContext.Provider>
  );
}
