import { createContext, useContext } from 'react';
import type { GarageBike } from './visitorGarage';

export type { GarageBike } from './visitorGarage';

/** My garage as every page sees it: the account's while signed in, this browser's for a visitor. */
export interface GarageState {
  /** Where the garage lives: the server (signed in) or this browser (visitor). */
  kind: 'server' | 'visitor';
  loading: boolean;
  /** The bikes, in the order added. */
  bikes: GarageBike[];
  /** The bike being shopped for (the catalog shows what fits it), or null. */
  current: GarageBike | null;
  /** Adds a bike (one already there stays), making it current when asked; throws with the reason when refused. */
  add: (bike: GarageBike, options?: { makeCurrent?: boolean }) => Promise<void>;
  remove: (id: string) => Promise<void>;
  /** Makes a bike of the garage current, or none (null). */
  setCurrent: (id: string | null) => Promise<void>;
}

export interface GarageContextValue extends GarageState {
  /** Opens My garage (the bikes, and the vehicle picker) in a dialog. */
  openGarage: () => void;
  /** Starts loading the dialog's code (a pointer over a garage button, or focus on it), so it opens at once. */
  prepareGarage: () => void;
}

/** Given by features/garage's GarageProvider, which the app puts around every page. */
export const GarageContext = createContext<GarageContextValue | null>(null);

/** The garage, or null outside its provider (a component rendered alone, in a test). */
export const useOptionalGarage = (): GarageContextValue | null => useContext(GarageContext);

export function useGarage(): GarageContextValue {
  const garage = useOptionalGarage();
  if (!garage) throw new Error('useGarage must be used inside the GarageProvider');
  return garage;
}

/** The current bike's vehicle id, for the catalog to filter by: null when none is current. */
export const useCurrentVehicleId = (): string | null => useOptionalGarage()?.current?.id ?? null;
