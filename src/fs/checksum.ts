// The checksum of lore's binary caches and of the shipped word table: CRC-32, which finds what it
// is for (a file cut short or damaged on disk) at ten times sha1's speed in a fresh process (a
// query checks about 17 MB of them). Like any sum without a key, it is no defence against a file
// made on purpose: such a file is still only read as data. Node ≥ 20.15 has zlib.crc32 (zlib's
// own, with the CPU's carry-less multiply); before that, the table below gives the same numbers.
import * as zlib from 'node:zlib';

let table: Uint32Array | undefined;

/** CRC-32 (the zlib and PNG one) of `data`, continuing from `value`, in JavaScript. */
export function crc32Slow(data: Uint8Array, value = 0): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = ~value;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
const crc32 = native ?? crc32Slow;

/** The CRC-32 of `parts` one after the other. */
export function crc32Of(...parts: Uint8Array[]): number {
  let value = 0;
  for (const part of parts) value = crc32(part, value);
  return value;
}

/** The CRC-32 of `parts` one after the other, as 8 hex digits. */
export function checksum(...parts: Uint8Array[]): string {
  return crc32Of(...parts).toString(16).padStart(8, '0');
}
