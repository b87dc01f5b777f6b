import { useEffect, useState } from 'react';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** An order's "Pay by" (or "Expired") time: the time alone when it is today, else the date and time. */
export function formatPayBy(iso: string, now = new Date()): string {
  const at = new Date(iso);
  return at.toDateString() === now.toDateString() ? timeOnly.format(at) : dateTime.format(at);
}

/** The longest a timer waits (a reservation may run for days; timers longer than ~24.8 days fire at once). */
const longestWait = 24 * 60 * 60_000;
/** Once a deadline has passed, how often to look again until the server's sweep has expired the order. */
const pollWhileDue = 2000;

/**
 * Refetches a list of unpaid orders when the earliest of their `deadlines` (ISO times) passes, then every two
 * seconds while one is past and still listed (the server expires due orders within its sweep interval), so an
 * order shown as pending turns Expired on screen without a reload.
 */
export function useRefetchAtDeadlines(deadlines: readonly string[], refetch: () => unknown): void {
  const [round, setRound] = useState(0);
  const earliest = deadlines.length ? Math.min(...deadlines.map((d) => Date.parse(d))) : null;
  useEffect(() => {
    if (earliest === null || Number.isNaN(earliest)) return undefined;
    const untilDue = earliest - Date.now();
    const wait = untilDue > 0 ? Math.min(untilDue + 500, longestWait) : pollWhileDue;
    const timer = setTimeout(() => {
      void Promise.resolve(refetch()).finally(() => setRound((r) => r + 1));
    }, wait);
    return () => clearTimeout(timer);
  }, [earliest, round, refetch]);
}
