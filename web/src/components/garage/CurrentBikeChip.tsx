import { toast } from 'react-hot-toast/headless';
import { errorMessage } from '../../lib/apollo';
import { useOptionalGarage } from '../../lib/garage/garage';
import { BikeIcon } from './BikeIcon';

/**
 * The current bike at the top of a catalog page, as a chip with Change (opens My garage) and Clear; without one,
 * a button to choose it. Nothing outside the garage's provider.
 */
export function CurrentBikeChip() {
  const garage = useOptionalGarage();
  if (!garage) return null;
  if (!garage.current) {
    return (
      <button
        type="button"
        className="btn btn-outline btn-sm gap-2"
        aria-haspopup="dialog"
        onClick={garage.openGarage}
        onPointerEnter={garage.prepareGarage}
        onFocus={garage.prepareGarage}
      >
        <BikeIcon className="h-5 w-5" />
        Choose your bike
      </button>
    );
  }
  const { name } = garage.current;
  return (
    <div
      className="inline-flex max-w-full flex-wrap items-center gap-x-2 gap-y-1 rounded-box border border-base-300 bg-base-200 px-3 py-1"
      data-testid="current-bike"
    >
      <BikeIcon className="h-5 w-5 shrink-0" />
      <span className="[overflow-wrap:anywhere]">
        Your bike: <strong>{name}</strong>
      </span>
      <span className="flex gap-1">
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          aria-haspopup="dialog"
          onClick={garage.openGarage}
          onPointerEnter={garage.prepareGarage}
          onFocus={garage.prepareGarage}
        >
          Change<span className="sr-only"> your bike</span>
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          onClick={() => void garage.setCurrent(null).catch((e: unknown) => toast.error(errorMessage(e)))}
        >
          Clear<span className="sr-only"> your bike</span>
        </button>
      </span>
    </div>
  );
}
