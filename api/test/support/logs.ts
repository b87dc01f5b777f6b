import { setEventLogging } from '../../src/logger';
import { copyToRunLog } from './runLog';

/**
 * The app's log lines (JSON, stdout and stderr) written while it runs, kept out of the test output; the info
 * lines of business events, which the harness otherwise leaves out (see startTestApp), are written meanwhile.
 */
export function captureLogs() {
  const eventsWere = setEventLogging(true);
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const keep = (chunk: string | Uint8Array) => {
    copyToRunLog(chunk); // the whole run's log sees captured lines too
    for (const line of String(chunk).split('\n')) {
      if (!line.startsWith('{')) continue;
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(keep);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(keep);
  return {
    lines,
    /** The lines as written, to search for what must never be logged. */
    raw,
    /** The lines of one money event (their `event` field), or of any when none is named. */
    events: (event?: string) => lines.filter((l) => typeof l.event === 'string' && (!event || l.event === event)),
    restore: () => {
      out.mockRestore();
      err.mockRestore();
      setEventLogging(eventsWere);
    },
  };
}
