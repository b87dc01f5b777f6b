import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-hot-toast/headless';
import { useDebouncedCallback } from 'use-debounce';
import { BusyButton } from '../../components/BusyButton';
import { errorAria, FieldFrame } from '../../components/form/ShopForm';
import { Cell, StackedTable } from '../../components/StackedTable';
import {
  useModelVehiclesQuery,
  usePartFitmentQuery,
  useUpdatePartMutation,
  useVehicleMakesQuery,
  useVehicleModelsQuery,
} from '../../generated/partEditing';
import { errorMessage, fieldErrors } from '../../lib/apollo';

const pageSize = 20;

/** A labelled select of the vehicle picker. */
function Picker({
  label,
  value,
  onChange,
  options,
  none,
  disabled,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { id: string; name: string }[];
  none: string;
  disabled?: boolean;
  error?: string;
}) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error}>
      <select
        id={id}
        className="select select-sm w-full"
        value={value}
        disabled={disabled}
        {...errorAria(id, error)}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">{none}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** A labelled text or number input of the add form. */
function Input({
  label,
  value,
  onChange,
  error,
  type = 'text',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  type?: string;
}) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error}>
      <input
        id={id}
        type={type}
        className={`input input-sm w-full ${error ? 'input-error' : ''}`}
        value={value}
        {...errorAria(id, error)}
        onChange={(e) => onChange(e.target.value)}
      />
    </FieldFrame>
  );
}

/**
 * The bikes a part fits (admin): its fitment rows, paged and searchable, each removable; a bike added by picking
 * make, model and vehicle, with a position, a quantity and a note. Each change is saved at once (updatePart's
 * addFitment / removeFitment); thousands of rows go through the catalog import instead.
 */
export function FitmentEditor({ partId }: { partId: string }) {
  const [offset, setOffset] = useState(0);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const applySearch = useDebouncedCallback((value: string) => {
    setSearch(value);
    setOffset(0);
  }, 300);
  const fitment = usePartFitmentQuery({
    variables: { id: partId, offset, limit: pageSize, search: search || null },
    fetchPolicy: 'cache-and-network',
  });
  const page = fitment.data?.part?.fitment;
  const [updatePart] = useUpdatePartMutation();

  const [makeId, setMakeId] = useState('');
  const [modelId, setModelId] = useState('');
  const [vehicleId, setVehicleId] = useState('');
  const [position, setPosition] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [adding, setAdding] = useState(false);
  const makes = useVehicleMakesQuery();
  const models = useVehicleModelsQuery({ variables: { makeId }, skip: !makeId });
  const vehicles = useModelVehiclesQuery({ variables: { modelId }, skip: !modelId });
  const pickMake = (id: string) => {
    setMakeId(id);
    setModelId('');
    setVehicleId('');
  };
  const pickModel = (id: string) => {
    setModelId(id);
    setVehicleId('');
  };

  const refresh = () => fitment.refetch({ id: partId, offset, limit: pageSize, search: search || null });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const n = Number(quantity);
    const problems: Record<string, string> = {};
    if (!vehicleId) problems.vehicleId = 'Pick the make, the model and the vehicle';
    if (!Number.isInteger(n) || n < 1 || n > 1000) problems.quantity = 'Must be a whole number from 1 to 1000';
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setAdding(true);
    try {
      await updatePart({
        variables: { id: partId, patch: { addFitment: [{ vehicleId, position, quantity: n, note }] } },
      });
      toast.success('Fitment saved.');
      setPosition('');
      setQuantity('1');
      setNote('');
      setVehicleId('');
      await refresh();
    } catch (e) {
      const fields = fieldErrors(e);
      setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^addFitment\.0\./, ''), v])));
      toast.error(errorMessage(e));
    } finally {
      setAdding(false);
    }
  };

  const remove = async (row: { vehicle: { id: string; name: string }; position: string }) => {
    try {
      await updatePart({
        variables: { id: partId, patch: { removeFitment: [{ vehicleId: row.vehicle.id, position: row.position }] } },
      });
      toast.success(`Removed ${row.vehicle.name}${row.position ? ` (${row.position})` : ''}.`);
      await refresh();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };

  return (
    <div className="card bg-base-100 shadow">
      <div className="card-body gap-4">
        <h3 className="card-title">Fitment {page && <span className="badge">{page.total}</span>}</h3>
        <form
          className="flex flex-col gap-3 rounded-box border border-base-300 p-3"
          onSubmit={(e) => void add(e)}
          noValidate
        >
          <h4 className="font-semibold">Add a bike it fits</h4>
          <div className="grid gap-2 sm:grid-cols-3">
            <Picker
              label="Make"
              value={makeId}
              onChange={pickMake}
              options={makes.data?.makes ?? []}
              none="Pick a make"
            />
            <Picker
              label="Model"
              value={modelId}
              onChange={pickModel}
              options={models.data?.models ?? []}
              none="Pick a model"
              disabled={!makeId}
            />
            <Picker
              label="Vehicle"
              value={vehicleId}
              onChange={setVehicleId}
              options={vehicles.data?.vehicles ?? []}
              none="Pick the year and variant"
              disabled={!modelId}
              error={errors.vehicleId}
            />
            <Input label="Position" value={position} onChange={setPosition} error={errors.position} />
            <Input label="Quantity" value={quantity} onChange={setQuantity} error={errors.quantity} type="number" />
            <Input label="Note" value={note} onChange={setNote} error={errors.note} />
          </div>
          <BusyButton className="btn btn-primary btn-sm self-start" busy={adding}>
            Add fitment
          </BusyButton>
        </form>

        <label className="input input-sm w-full sm:w-72">
          <span className="sr-only">Search the bikes it fits</span>
          <input
            type="search"
            placeholder="Search make, model, year"
            value={typed}
            aria-label="Search the bikes it fits"
            onChange={(e) => {
              setTyped(e.target.value);
              applySearch(e.target.value.trim());
            }}
          />
        </label>
        {!page ? (
          <p className="text-sm">
            {fitment.error ? `The fitment could not load: ${fitment.error.message}` : 'Loading…'}
          </p>
        ) : page.items.length === 0 ? (
          <p className="text-sm text-gray-700">{search ? `No bikes match "${search}".` : 'It fits no bike yet.'}</p>
        ) : (
          <StackedTable>
            <caption className="sr-only">The bikes this part fits</caption>
            <thead>
              <tr>
                <th>Vehicle</th>
                <th>Position</th>
                <th className="text-right">Quantity</th>
                <th>Note</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((row) => (
                <tr key={`${row.vehicle.id} ${row.position}`} data-testid="fitment-row">
                  <Cell label="Vehicle">{row.vehicle.name}</Cell>
                  <Cell label="Position">{row.position}</Cell>
                  <Cell label="Quantity" className="text-right">
                    {row.quantity}
                  </Cell>
                  <Cell label="Note" className="[overflow-wrap:anywhere]">
                    {row.note}
                  </Cell>
                  <Cell label="">
                    <button type="button" className="btn btn-outline btn-sm ml-auto" onClick={() => void remove(row)}>
                      Remove
                      <span className="sr-only">
                        {' '}
                        {row.vehicle.name}
                        {row.position ? ` ${row.position}` : ''}
                      </span>
                    </button>
                  </Cell>
                </tr>
              ))}
            </tbody>
          </StackedTable>
        )}
        {page && page.total > pageSize && (
          <nav className="flex items-center gap-2" aria-label="Fitment pages">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - pageSize))}
            >
              Previous
            </button>
            <span className="text-sm">
              {offset + 1}–{Math.min(offset + pageSize, page.total)} of {page.total}
            </span>
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={offset + pageSize >= page.total}
              onClick={() => setOffset(offset + pageSize)}
            >
              Next
            </button>
          </nav>
        )}
      </div>
    </div>
  );
}
