import { copyToRunLog } from './runLog';

// Every app log line of this test file also goes to the run's log (api/test/support/runLog.ts).
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    copyToRunLog(chunk);
    return write(chunk, ...rest);
  }) as typeof stream.write;
}
