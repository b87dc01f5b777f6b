/** The most bytes one chunk of an import's file carries (the API's bound, docs/imports.md). */
export const chunkBytes = 8 * 1024 * 1024;

const newline = 0x0a;
const quote = 0x22;

/**
 * Cuts a CSV file into chunks of at most `maxBytes`, each ending at the end of a row: at a line end outside a
 * quoted value (a quoted value may hold line ends; a doubled quote inside it flips the state twice, so counting
 * quotes is enough). Reads one chunk's worth at a time, so a file of any size never sits in memory whole.
 * Throws when one row is longer than a chunk.
 */
export async function* fileChunks(
  file: Blob,
  maxBytes = chunkBytes,
): AsyncGenerator<{ bytes: Uint8Array<ArrayBuffer>; end: number }> {
  let start = 0;
  let quoted = false;
  while (start < file.size) {
    const bytes = new Uint8Array(await file.slice(start, start + maxBytes).arrayBuffer());
    const last = start + bytes.length >= file.size;
    let cut = -1;
    let state: boolean = quoted;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === quote) state = !state;
      else if (bytes[i] === newline && !state) {
        cut = i + 1;
        quoted = state;
      }
    }
    if (last) cut = bytes.length;
    if (cut <= 0) throw new Error(`A row of this file is longer than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    if (last) quoted = state;
    yield { bytes: bytes.subarray(0, cut), end: start + cut };
    start += cut;
  }
}
