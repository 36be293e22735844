// The checksum of the binary caches and the word table: CRC-32, from zlib when Node has it, else
// lore's own table, which must give the same numbers.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { describe, it } from 'node:test';
import { checksum, crc32Slow } from '../src/fs/checksum.js';

describe('the checksum', () => {
  it('is CRC-32: the check value of "123456789", and 8 hex digits with leading zeros', () => {
    assert.equal(checksum(Buffer.from('123456789')), 'cbf43926');
    assert.equal(checksum(), '00000000');
    assert.equal(checksum(Buffer.from('a'), Buffer.from('bc')), checksum(Buffer.from('abc')));
    assert.equal(checksum(Buffer.from('abc')), '352441c2');
  });

  it("gives zlib's numbers in JavaScript, whole and continued, on 500 random buffers", () => {
    const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
    assert.ok(native !== undefined, 'this Node has no zlib.crc32 (Node >= 20.15 has)');
    for (let i = 0; i < 500; i++) {
      const data = randomBytes(i * 7);
      const cut = Math.floor(data.length / 3);
      assert.equal(crc32Slow(data), native(data));
      assert.equal(crc32Slow(data.subarray(cut), crc32Slow(data.subarray(0, cut))), native(data));
    }
  });
});
