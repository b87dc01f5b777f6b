import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * Page number and filters of a list, kept in the address (`?page=2&status=paid`), like the catalog's: a
 * view can be linked to, reloaded, and Back returns to the page before. Changing a filter goes back to the
 * first page (and replaces the entry: typing a search does not fill the history).
 */
export function useListParams(pageSize: number) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);

  const setPage = useCallback(
    (next: number) =>
      setParams((current) => {
        const updated = new URLSearchParams(current);
        const n = Math.max(1, Math.floor(next));
        if (n > 1) updated.set('page', String(n));
        else updated.delete('page');
        return updated;
      }),
    [setParams],
  );

  const setFilter = useCallback(
    (name: string, value: string) =>
      setParams(
        (current) => {
          if ((current.get(name) ?? '') === value) return current;
          const updated = new URLSearchParams(current);
          if (value) updated.set(name, value);
          else updated.delete(name);
          updated.delete('page');
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );

  return {
    page,
    offset: (page - 1) * pageSize,
    limit: pageSize,
    setPage,
    filter: (name: string) => params.get(name) ?? '',
    setFilter,
  };
}

/**
 * When the page shown lies past the end (its last rows were deleted), moves to the last page that has rows.
 */
export function useStayInRange(
  page: number,
  pageSize: number,
  total: number | undefined,
  setPage: (p: number) => void,
) {
  useEffect(() => {
    if (total === undefined || page <= 1) return;
    const last = Math.max(1, Math.ceil(total / pageSize));
    if (page > last) setPage(last);
  }, [page, pageSize, total, setPage]);
}
