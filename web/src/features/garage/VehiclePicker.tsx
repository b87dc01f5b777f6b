import { useEffect, useRef, useState } from 'react';
import { usePickerMakesQuery, usePickerModelsQuery, usePickerVehiclesQuery } from '../../generated/picker';
import { errorMessage } from '../../lib/apollo';
import type { GarageBike } from '../../lib/garage/garage';
import { Combobox } from './Combobox';

/** How a vehicle's variant reads in the list: the base vehicle has none. */
export const baseVariantLabel = 'Base model';

type Step = 'model' | 'year' | 'variant' | 'choose';

/**
 * The vehicle picker (issue 33 point 3): make, then model, then year, then variant (when the year has more than the
 * base vehicle), each a field whose list narrows as one types (Combobox), each opening once the one before is
 * chosen; choosing one moves the focus on to the next, so the keyboard alone walks it. Changing a step empties the
 * steps after it. `onChoose` gets the vehicle, named as the shop names it ("2019 Honda CRF450R").
 */
export function VehiclePicker({ onChoose }: { onChoose: (bike: GarageBike) => Promise<void> }) {
  const [makeId, setMakeId] = useState<string | null>(null);
  const [modelId, setModelId] = useState<string | null>(null);
  const [year, setYear] = useState<number | null>(null);
  const [vehicleId, setVehicleId] = useState<string | null>(null);
  const [next, setNext] = useState<Step | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const modelField = useRef<HTMLInputElement>(null);
  const yearField = useRef<HTMLInputElement>(null);
  const variantField = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);

  const makes = usePickerMakesQuery();
  const models = usePickerModelsQuery({ variables: { makeId: makeId ?? '' }, skip: !makeId });
  const vehicles = usePickerVehiclesQuery({ variables: { modelId: modelId ?? '' }, skip: !modelId });
  const ofModel = modelId ? (vehicles.data?.vehicles ?? []) : [];
  const years = [...new Set(ofModel.map((v) => v.year))].sort((a, b) => b - a);
  const ofYear = ofModel.filter((v) => v.year === year);
  const needsVariant = ofYear.length > 1;
  const chosen = needsVariant ? ofYear.find((v) => v.id === vehicleId) : ofYear[0];

  // Once a step is chosen, the next takes the focus as soon as it can (its list loaded, its field enabled).
  useEffect(() => {
    if (!next) return;
    // A year with the base vehicle alone has no variant to choose: on to the button.
    const step = next === 'variant' && !needsVariant && chosen ? 'choose' : next;
    const target = { model: modelField, year: yearField, variant: variantField, choose: chooseButton }[step].current;
    if (target && !target.disabled) {
      target.focus();
      setNext(null);
    }
  }, [next, needsVariant, chosen, makeId, modelId, year]);

  const failed = makes.error ?? models.error ?? vehicles.error;
  const choose = async () => {
    if (!chosen) return;
    setBusy(true);
    setProblem(null);
    try {
      await onChoose({ id: chosen.id, name: chosen.name });
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <Combobox
        label="Make"
        noun={['make', 'makes']}
        options={(makes.data?.makes ?? []).map((m) => ({ id: m.id, label: m.name }))}
        value={makeId}
        loading={makes.loading}
        placeholder="Type to find a make"
        autoFocus
        onChange={(id) => {
          setMakeId(id);
          setModelId(null);
          setYear(null);
          setVehicleId(null);
        }}
        onPicked={() => setNext('model')}
      />
      <Combobox
        key={`model-${makeId}`}
        inputRef={modelField}
        label="Model"
        noun={['model', 'models']}
        options={(makeId ? (models.data?.models ?? []) : []).map((m) => ({ id: m.id, label: m.name }))}
        value={modelId}
        disabled={!makeId}
        loading={Boolean(makeId) && models.loading}
        placeholder={makeId ? 'Type to find a model' : 'Choose a make first'}
        onChange={(id) => {
          setModelId(id);
          setYear(null);
          setVehicleId(null);
        }}
        onPicked={() => setNext('year')}
      />
      <Combobox
        key={`year-${modelId}`}
        inputRef={yearField}
        label="Year"
        noun={['year', 'years']}
        options={years.map((y) => ({ id: String(y), label: String(y) }))}
        value={year === null ? null : String(year)}
        disabled={!modelId}
        loading={Boolean(modelId) && vehicles.loading}
        placeholder={modelId ? 'Type to find a year' : 'Choose a model first'}
        onChange={(id) => {
          setYear(id === null ? null : Number(id));
          setVehicleId(null);
        }}
        onPicked={() => setNext('variant')}
      />
      <Combobox
        key={`variant-${modelId}-${year}`}
        inputRef={variantField}
        label="Variant"
        noun={['variant', 'variants']}
        options={ofYear.map((v) => ({ id: v.id, label: v.variant || baseVariantLabel }))}
        value={needsVariant ? vehicleId : (chosen?.id ?? null)}
        disabled={!needsVariant}
        placeholder={
          year === null ? 'Choose a year first' : needsVariant ? 'Type to find a variant' : 'Only the base model'
        }
        onChange={setVehicleId}
        onPicked={() => setNext('choose')}
      />
      {failed && (
        <p role="alert" className="text-sm text-red-800">
          The list could not load: {errorMessage(failed)}
        </p>
      )}
      <p aria-live="polite" className="min-h-6">
        {chosen ? (
          <>
            Your choice: <strong>{chosen.name}</strong>
          </>
        ) : (
          ''
        )}
      </p>
      {problem && (
        <p role="alert" className="text-sm text-red-800">
          {problem}
        </p>
      )}
      <button
        ref={chooseButton}
        type="button"
        className="btn btn-primary"
        disabled={!chosen || busy}
        aria-busy={busy || undefined}
        onClick={() => void choose()}
      >
        Choose this bike
      </button>
    </div>
  );
}
