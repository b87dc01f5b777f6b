import { toast } from 'react-hot-toast/headless';
import { errorMessage } from '../../lib/apollo';
import { useHydrated } from '../../lib/hydration';
import { useOptionalGarage } from '../../lib/garage/garage';
import { BikeIcon } from './BikeIcon';

/**
 * The header's way into My garage, on every page: the current bike as a chip (its name opens the garage to change
 * it, the cross clears it) on wide screens; on narrow ones the icon alone, marked when a bike is current. The
 * pre-rendered pages show no bike (the HTML knows no visitor); the browser shows theirs once hydrated.
 */
export function GarageButton() {
  const garage = useOptionalGarage();
  const hydrated = useHydrated();
  if (!garage) return null;
  const current = hydrated ? garage.current : null;
  const label = current ? `My bike: ${current.name}` : 'My bike: none chosen';
  return (
    <div className="flex items-center">
      <button
        type="button"
        className="btn btn-ghost btn-circle relative md:w-auto md:gap-2 md:px-3"
        aria-haspopup="dialog"
        aria-label={label}
        title={current ? `${label} (change)` : 'Choose your bike'}
        data-testid="garage-button"
        onClick={garage.openGarage}
        onPointerEnter={garage.prepareGarage}
        onFocus={garage.prepareGarage}
      >
        <BikeIcon />
        {current && (
          // On narrow screens, where the name is not shown, a dot says a bike is current.
          <span
            className="absolute top-1.5 right-1.5 h-2.5 w-2.5 rounded-full bg-primary ring-2 ring-base-100 md:hidden"
            data-testid="garage-current-mark"
          />
        )}
        <span className="hidden max-w-44 truncate md:inline" data-testid="garage-chip">
          {current ? current.name : 'My bike'}
        </span>
      </button>
      {current && (
        <button
          type="button"
          className="btn btn-ghost btn-xs btn-circle hidden md:inline-flex"
          aria-label={`Clear my bike (${current.name})`}
          title="Clear my bike"
          onClick={() => void garage.setCurrent(null).catch((e: unknown) => toast.error(errorMessage(e)))}
        >
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}
