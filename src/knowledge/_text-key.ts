// The text keys of the caches that keep one per entry (the BM25 and entry-vector snapshots): the
// sha1 of the text a row was made from, so rows of texts a cache already holds are reused after
// an edit. Keys sit side by side in one buffer, TEXT_KEY_BYTES each.
import { createHash } from 'node:crypto';

/** Bytes of one text key. */
export const TEXT_KEY_BYTES = 20;

/** The key of a text. */
export function textKey(text: string): Buffer {
  return createHash('sha1').update(text).digest();
}

/** Key `row` of a buffer of keys, as a string a Map can hold. */
export function keyAt(keys: Buffer, row: number): string {
  return keys.toString('latin1', TEXT_KEY_BYTES * row, TEXT_KEY_BYTES * (row + 1));
}

/** The row of each key in a buffer of `rows` keys (the last row, for a key held twice). */
export function rowsByKey(keys: Buffer, rows: number): Map<string, number> {
  const rowOf = new Map<string, number>();
  for (let row = 0; row < rows; row++) rowOf.set(keyAt(keys, row), row);
  return rowOf;
}
