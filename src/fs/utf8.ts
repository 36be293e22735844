// Strict UTF-8 decoding of untrusted files: a byte that is not UTF-8 is an error with its line
// and column, never a silent U+FFFD that a later write would make permanent.
import { isUtf8 } from 'node:buffer';
import { ValidationError, type Problem } from '../errors.js';

/** Where a text stops being UTF-8: the first byte of the bad sequence. */
export interface Utf8Fault {
  /** Byte offset of the bad byte. */
  offset: number;
  /** 1-based line and column (in characters, as the parser counts them) of the bad byte. */
  line: number;
  column: number;
  /** The bad byte's value. */
  byte: number;
}

/** Length of the well-formed sequence starting at `i`, or 0 (Unicode table 3-7, as TextDecoder's fatal mode decides). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < bytes.length && bytes[i + k]! >= lo && bytes[i + k]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** The first fault of bytes known not to be UTF-8 (only called on the error path). */
function firstFault(bytes: Uint8Array): Utf8Fault {
  let line = 1;
  let lineStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      const column = Buffer.from(bytes.buffer, bytes.byteOffset + lineStart, i - lineStart).toString('utf8').length + 1;
      return { offset: i, line, column, byte: bytes[i]! };
    }
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
    i += length;
  }
  // isUtf8 and this scan disagree only if one of them is wrong; report the end rather than nothing.
  return { offset: bytes.length, line, column: 1, byte: 0 };
}

/**
 * Decodes UTF-8 strictly: the text, or where the first byte that is not UTF-8 sits. A byte order
 * mark is kept (callers strip it). Valid input costs one vectorised check on top of the decode.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { fault: Utf8Fault } {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return { text: buffer.toString('utf8') };
  return { fault: firstFault(buffer) };
}

/** The problem of a file that is not UTF-8; `what` names it in the message ("the file", "the input"). */
export function utf8Problem(file: string, fault: Utf8Fault, what = 'the file'): Problem {
  return { severity: 'error', file, line: fault.line, column: fault.column, message: `${what} is not valid UTF-8 (byte 0x${fault.byte.toString(16).padStart(2, '0')})` };
}

/** Decodes strictly or throws ValidationError (exit 1) naming the file, line and column of the first bad byte. */
export function decodeUtf8OrThrow(bytes: Uint8Array, file: string, what = 'the file'): string {
  const decoded = decodeUtf8(bytes);
  if ('text' in decoded) return decoded.text;
  throw new ValidationError(`${file} is not valid UTF-8`, [utf8Problem(file, decoded.fault, what)]);
}
