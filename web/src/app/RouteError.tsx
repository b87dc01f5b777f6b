import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** A failed lazy chunk (or any render error) shows a clear message and a retry, never a blank page. */
export function RouteError() {
  const error = useRouteError();
  const chunk =
    error instanceof Error &&
    /dynamically imported module|Loading chunk|Importing a module script failed/i.test(error.message);
  const title = chunk ? 'This page could not be loaded' : 'Something went wrong';
  const detail = chunk
    ? 'Part of the shop failed to download (the connection dropped, or the shop was just updated).'
    : isRouteErrorResponse(error)
      ? `${error.status} ${error.statusText}`
      : 'An unexpected error happened while showing this page.';
  return (
    <div
      className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 p-8 text-center"
      role="alert"
    >
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-gray-600">{detail}</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        Retry
      </button>
    </div>
  );
}
