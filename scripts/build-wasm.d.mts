/** The binary wabt makes of a .wat source (SIMD on, no names section: the same bytes each time). */
export function assemble(path: string): Promise<Buffer>;
