import { useId, useRef, useState, type FormEvent } from 'react';
import {
  useCancelImportMutation,
  useFinishImportMutation,
  useImportJobQuery,
  useImportJobsQuery,
  useImportRejectionsQuery,
  useStartImportMutation,
  type ImportJobFieldsFragment,
  type ImportKind,
} from '../../generated/imports';
import { errorMessage } from '../../lib/apollo';
import { getAccessToken, renewSession } from '../../lib/session';
import { fileChunks } from './fileChunks';

const kinds: { value: ImportKind; label: string; columns: string }[] = [
  { value: 'VEHICLES', label: 'Vehicles', columns: 'make, model, year (or 2018-2020), variant' },
  {
    value: 'PARTS',
    label: 'Parts',
    columns: 'sku, name, price, description, min_order, pack_size, stock, brand, category, universal, image',
  },
  {
    value: 'NUMBERS',
    label: 'Part numbers',
    columns: 'sku, kind (manufacturer, oem, interchange, ean), number, brand',
  },
  {
    value: 'FITMENT',
    label: 'Fitment',
    columns: 'sku, make, model, year (or a range), variant, position, quantity, note',
  },
  { value: 'SUPERSESSIONS', label: 'Supersessions', columns: 'sku, replaced_by' },
];

const number = (n: number) => n.toLocaleString('en-US');
const ended = (status: string) => status === 'SUCCEEDED' || status === 'FAILED' || status === 'CANCELLED';

/** A request to the REST shim with the session's token, renewed once if it ran out (as the API client does). */
async function sendChunk(id: string, part: number, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  const send = () =>
    fetch(`/api/imports/${id}/chunks/${part}`, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${getAccessToken() ?? ''}` },
      body: bytes,
    });
  let res = await send();
  if (res.status === 401 && (await renewSession()) === 'renewed') res = await send();
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string; errors?: Record<string, string> };
    throw new Error(Object.values(body.errors ?? {})[0] ?? body.message ?? `The upload failed (${res.status})`);
  }
}

/** The file's rejected rows as CSV, fetched with the token and saved through the browser. */
async function downloadRejections(id: string) {
  const res = await fetch(`/api/imports/${id}/rejections.csv`, {
    headers: { authorization: `Bearer ${getAccessToken() ?? ''}` },
  });
  if (!res.ok) throw new Error(`The download failed (${res.status})`);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `rejected-rows-${id}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Progress({ job, uploaded }: { job: ImportJobFieldsFragment | null; uploaded: number | null }) {
  let value: number | undefined;
  let text: string;
  if (!job || job.status === 'RECEIVING') {
    value = uploaded ?? 0;
    text = `Uploading the file: ${Math.round((uploaded ?? 0) * 100)} %`;
  } else if (job.status === 'QUEUED') {
    text = 'Waiting for the import worker…';
  } else if (job.status === 'RUNNING' && job.phase === 'checking') {
    text = `Checking ${number(job.rowsTotal)} rows against the catalog…`;
  } else if (job.status === 'RUNNING') {
    const todo = Math.max(1, job.rowsTotal - job.rowsRejected);
    value = Math.min(1, job.rowsDone / todo);
    const pace = job.rowsPerSecond ? ` · ${number(job.rowsPerSecond)} rows/s` : '';
    const left = job.secondsLeft != null ? ` · about ${number(job.secondsLeft)} s left` : '';
    text = `Applying ${number(job.rowsDone)} of ${number(todo)} rows${pace}${left}`;
  } else {
    value = 1;
    text = job.status === 'SUCCEEDED' ? 'Done' : job.status === 'CANCELLED' ? 'Cancelled' : 'Failed';
  }
  return (
    <div className="flex flex-col gap-1">
      <progress
        className="progress progress-primary w-full"
        value={value}
        max={1}
        aria-label="Import progress"
        aria-valuetext={text}
      />
      <p className="text-sm" aria-live="polite">
        {text}
      </p>
    </div>
  );
}

function Outcome({ job }: { job: ImportJobFieldsFragment }) {
  const [downloadError, setDownloadError] = useState('');
  const rejections = useImportRejectionsQuery({
    variables: { id: job.id, limit: 50 },
    skip: job.rowsRejected === 0,
    fetchPolicy: 'network-only',
  });
  const rows = rejections.data?.importRejections.items ?? [];
  return (
    <div className="flex flex-col gap-3">
      {job.status === 'SUCCEEDED' && (
        <p role="status">
          {number(job.inserted)} added, {number(job.updated)} changed, {number(job.unchanged)} unchanged;{' '}
          {number(job.rowsRejected)} {job.rowsRejected === 1 ? 'row' : 'rows'} rejected.
        </p>
      )}
      {job.status === 'FAILED' && (
        <p role="alert" className="text-error">
          {job.error}
        </p>
      )}
      {job.status === 'CANCELLED' && <p role="status">Cancelled: the catalog is as it was.</p>}
      {job.rowsRejected > 0 && (
        <section aria-labelledby={`rejected-${job.id}`} className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id={`rejected-${job.id}`} className="font-semibold">
              Rejected rows ({number(job.rowsRejected)})
            </h3>
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => void downloadRejections(job.id).catch((e: Error) => setDownloadError(e.message))}
            >
              Download rejected rows (CSV)
            </button>
          </div>
          {downloadError && <p role="alert">{downloadError}</p>}
          <div className="overflow-x-auto">
            <table className="table table-sm">
              <caption className="sr-only">The first rejected rows, by line</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Column</th>
                  <th scope="col">Value</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.line}>
                    <td>{r.line}</td>
                    <td>{r.column}</td>
                    <td className="max-w-40 break-all">{r.value}</td>
                    <td>{r.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

/**
 * Loading the catalog from CSV files (admin; docs/imports.md): the file goes up in chunks that end at row ends,
 * then the job is followed live (checking, applying, rows a second, time left) and can be cancelled until it
 * commits; rejected rows are shown and downloadable.
 */
export default function ImportsPage() {
  const [kind, setKind] = useState<ImportKind>('FITMENT');
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [uploaded, setUploaded] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const stopUpload = useRef(false);
  const fileInput = useId();
  const kindHint = useId();
  const [start] = useStartImportMutation();
  const [finish] = useFinishImportMutation();
  const [cancel] = useCancelImportMutation();
  const job = useImportJobQuery({
    variables: { id: jobId ?? '' },
    skip: !jobId,
    pollInterval: 1000,
    fetchPolicy: 'network-only',
  });
  const current = job.data?.importJob ?? null;
  if (current && ended(current.status)) job.stopPolling();
  const history = useImportJobsQuery({ variables: { limit: 10 }, fetchPolicy: 'network-only' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    if (!file) {
      setProblem('Choose a CSV file to import');
      return;
    }
    setBusy(true);
    stopUpload.current = false;
    setUploaded(0);
    try {
      const started = await start({ variables: { kind, fileName: file.name } });
      const id = started.data?.startImport.id;
      if (!id) throw new Error('The import could not be started');
      setJobId(id);
      let part = 0;
      for await (const chunk of fileChunks(file)) {
        if (stopUpload.current) return;
        await sendChunk(id, part++, chunk.bytes);
        setUploaded(chunk.end / file.size);
      }
      await finish({ variables: { id } });
      job.startPolling(1000);
      await job.refetch({ id });
    } catch (error) {
      setProblem(error instanceof Error && !('graphQLErrors' in error) ? error.message : errorMessage(error));
    } finally {
      setBusy(false);
      void history.refetch();
    }
  };

  const stop = async () => {
    stopUpload.current = true;
    if (!jobId) return;
    await cancel({ variables: { id: jobId } });
    await job.refetch();
    void history.refetch();
  };

  const running = busy || (current !== null && !ended(current.status));
  const chosen = kinds.find((k) => k.value === kind);
  return (
    <section className="flex flex-col gap-6">
      <h2 className="text-xl font-bold">Import catalog</h2>
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <label className="form-control flex flex-col gap-1">
          <span className="label-text">What the file holds</span>
          <select
            className="select select-bordered w-full max-w-sm"
            value={kind}
            onChange={(e) => setKind(e.target.value as ImportKind)}
            aria-describedby={kindHint}
            disabled={running}
          >
            {kinds.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
          <span id={kindHint} className="text-sm text-base-content/80">
            Columns: {chosen?.columns}
          </span>
        </label>
        <label className="form-control flex flex-col gap-1" htmlFor={fileInput}>
          <span className="label-text">CSV file (UTF-8, a header row naming the columns)</span>
          <input
            id={fileInput}
            type="file"
            accept=".csv,text/csv"
            className="file-input file-input-bordered w-full max-w-sm"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            disabled={running}
            aria-invalid={problem ? true : undefined}
            aria-errormessage={problem ? `${fileInput}-problem` : undefined}
          />
        </label>
        {problem && (
          <p id={`${fileInput}-problem`} role="alert" className="text-error">
            {problem}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn btn-primary" disabled={running}>
            Import
          </button>
          {running && (
            <button type="button" className="btn" onClick={() => void stop()}>
              Cancel import
            </button>
          )}
        </div>
      </form>
      {(busy || current) && <Progress job={current} uploaded={uploaded} />}
      {current && ended(current.status) && <Outcome job={current} />}
      <section aria-labelledby="past-imports" className="flex flex-col gap-2">
        <h3 id="past-imports" className="font-semibold">
          Recent imports
        </h3>
        <ul className="flex flex-col gap-1 text-sm">
          {(history.data?.importJobs.items ?? []).map((j) => (
            <li key={j.id}>
              {new Date(j.createdAt).toLocaleString()} · {j.fileName || 'file'} ({j.kind.toLowerCase()}):{' '}
              {j.status.toLowerCase()}
              {j.status === 'SUCCEEDED' &&
                ` · ${number(j.inserted)} added, ${number(j.updated)} changed, ${number(j.rowsRejected)} rejected`}
            </li>
          ))}
        </ul>
      </section>
    </section>
  );
}
