/**
 * Many texts as one block of UTF-8 in shared memory, each after the one before: what the service
 * keeps of a list version's entities (stored-entries.ts) and what its index thread reads them from
 * (index-thread.ts). A block is memory outside the JavaScript heap, so the garbage collector of
 * the thread that answers requests neither marks nor moves it; and being shared, it crosses to
 * the index thread as a reference: the texts were copied to it a few thousand to a message, each
 * copy some milliseconds of that thread's time and tens of megabytes that the collector then
 * counted against the heap, once per refresh (bench:lists-refresh).
 */

export type PackedTexts = {
  /** The texts end to end, in SharedArrayBuffer memory. */
  readonly bytes: Uint8Array;
  /** Where each text ends in `bytes`: text i is bytes[ends[i - 1] ?? 0 … ends[i]]. */
  readonly ends: Uint32Array;
};

/** A run of consecutive texts of one block, [start, end) by index. */
export type TextRun = { from: PackedTexts; start: number; end: number };

const decoder = new TextDecoder();

export const textCount = (packed: PackedTexts) => packed.ends.length;

const startOf = (packed: PackedTexts, i: number) => (i === 0 ? 0 : (packed.ends[i - 1] as number));

/** Text i of the block. */
export function textAt(packed: PackedTexts, i: number): string {
  return decoder.decode(packed.bytes.subarray(startOf(packed, i), packed.ends[i]));
}

/** The texts, in this order, as one block. */
export function packTexts(texts: readonly string[]): PackedTexts {
  const ends = sharedUint32s(texts.length);
  let end = 0;
  texts.forEach((text, i) => {
    end += Buffer.byteLength(text, 'utf8');
    ends[i] = end;
  });
  const bytes = new Uint8Array(new SharedArrayBuffer(end));
  const writer = Buffer.from(bytes.buffer);
  texts.forEach((text, i) => writer.write(text, startOf({ bytes, ends }, i), 'utf8'));
  return { bytes, ends };
}

/** One block of the runs' texts, in the runs' order: bytes are copied a run at a time, no text is decoded. */
export function joinRuns(runs: readonly TextRun[]): PackedTexts {
  const count = runs.reduce((sum, run) => sum + run.end - run.start, 0);
  const size = runs.reduce((sum, run) => sum + startOf(run.from, run.end) - startOf(run.from, run.start), 0);
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  const ends = sharedUint32s(count);
  let at = 0;
  let written = 0;
  for (const { from, start, end } of runs) {
    const first = startOf(from, start);
    bytes.set(from.bytes.subarray(first, startOf(from, end)), written);
    for (let i = start; i < end; i++) ends[at++] = written + (from.ends[i] as number) - first;
    written += startOf(from, end) - first;
  }
  return { bytes, ends };
}

function sharedUint32s(count: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(count * Uint32Array.BYTES_PER_ELEMENT));
}
