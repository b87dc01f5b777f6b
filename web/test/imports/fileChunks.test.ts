/**
 * @jest-environment node
 */
import { fileChunks } from '../../src/features/imports/fileChunks';

const chunksOf = async (text: string, max: number) => {
  const out: string[] = [];
  for await (const chunk of fileChunks(new Blob([text]), max)) out.push(Buffer.from(chunk.bytes).toString('utf8'));
  return out;
};

describe('an import file cut into chunks (each ends at a row end)', () => {
  it('cuts at the last line end that fits, and keeps every byte once', async () => {
    const text = 'sku,name\nA,one\nB,two\nC,three\n';
    const chunks = await chunksOf(text, 16);
    expect(chunks).toEqual(['sku,name\nA,one\n', 'B,two\nC,three\n']);
    expect(chunks.join('')).toBe(text);
  });

  it('never cuts inside a quoted value that holds a line end, doubled quotes included', async () => {
    const text = 'sku,note\nA,"two\nlines ""quoted"""\nB,x\n';
    const chunks = await chunksOf(text, 26);
    expect(chunks).toEqual(['sku,note\n', 'A,"two\nlines ""quoted"""\n', 'B,x\n']);
  });

  it('keeps a last row without its line end, and refuses a row longer than a chunk', async () => {
    expect(await chunksOf('sku\nA', 8)).toEqual(['sku\nA']);
    await expect(chunksOf(`sku\n${'x'.repeat(40)}\n`, 16)).rejects.toThrow('A row of this file is longer than');
  });
});
