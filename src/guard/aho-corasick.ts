// Aho-Corasick compiled to a dense DFA: finds which of many literals occur in a text in one pass,
// with two array reads per character and no allocation. Characters that occur in no literal
// share one class; ASCII case is folded by the class table, so the text is never lower-cased.

/** The characters outside ASCII that case-fold onto ASCII letters: RE2's (?i)s matches ſ, (?i)k the Kelvin sign. */
const ASCII_FOLDS: ReadonlyArray<[number, string]> = [[0x017f, 's'], [0x212a, 'k']];

/**
 * A literal as the automaton compares it: ASCII letters lower-cased, the two letters above
 * replaced by theirs, everything else as written. Case-insensitive literals are ASCII only
 * (see literals.ts), so this folding is exactly RE2's for them.
 */
function fold(text: string): string {
  if (!/[A-Z\u017f\u212a]/.test(text)) return text;
  let folded = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  for (const [code, letter] of ASCII_FOLDS) folded = folded.replaceAll(String.fromCharCode(code), letter);
  return folded;
}

/** Alphabets larger than this leave the literals that need more classes out of the automaton. */
const MAX_CLASSES = 255;
/** So do literals beyond this many states in all: the table stays under 64 MiB whatever the store holds. */
const MAX_STATES = 1 << 16;

/** Marks bytes written by toBytes (and their byte order): "AC01" as a little-endian int32. */
const MAGIC = 0x31304341;

/** What toBytes saves. */
interface Saved {
  classOf: Uint8Array<ArrayBuffer>;
  classes: number;
  next: Int32Array<ArrayBuffer>;
  outStart: Int32Array<ArrayBuffer>;
  outIds: Int32Array<ArrayBuffer>;
  skipped: number[];
}

/** A compiled set of literals, ASCII letters matched in any case; `search` collects the ids of those found. */
export class LiteralSet {
  /** Character code → alphabet class (0: in no literal). */
  private readonly classOf = new Uint8Array(65536);
  private readonly classes: number;
  /**
   * Transitions: next[row + class] is the row of the next state (row = state × classes), or its
   * bitwise complement when literals end in that state.
   */
  private readonly next: Int32Array;
  /** Ids of the literals ending in each state, including through fail links: outIds[outStart[s]..outStart[s+1]]. */
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;
  /** Per state, the search that last reported its literals: each is reported once per text. */
  private readonly reported: Int32Array;
  private searches = 0;
  /** Ids of literals left out (alphabet or table full): their matchers must run without a prefilter. */
  readonly skipped: number[] = [];

  constructor(literals: ReadonlyArray<{ id: number; text: string }>, saved?: Saved) {
    if (saved !== undefined) {
      ({ classOf: this.classOf, classes: this.classes, next: this.next, outStart: this.outStart, outIds: this.outIds, skipped: this.skipped } = saved);
      this.reported = new Int32Array(this.outStart.length - 1);
      return;
    }
    let classes = 1;
    let budget = 1;
    // Each distinct literal once, with the ids of every matcher that carries it.
    const usable = new Map<string, number[]>();
    for (const literal of literals) {
      const text = fold(literal.text);
      const same = usable.get(text);
      if (same !== undefined) {
        same.push(literal.id);
        continue;
      }
      const fresh = new Set<number>();
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (this.classOf[code] === 0) fresh.add(code);
      }
      if (classes + fresh.size > MAX_CLASSES || budget + text.length > MAX_STATES) {
        this.skipped.push(literal.id);
        continue;
      }
      for (const code of fresh) this.classOf[code] = classes++;
      budget += text.length;
      usable.set(text, [literal.id]);
    }
    // Upper-case ASCII shares its lower-case letter's class; so do the long s and the Kelvin sign.
    for (let code = 0x61; code <= 0x7a; code++) this.classOf[code - 0x20] = this.classOf[code]!;
    for (const [code, letter] of ASCII_FOLDS) this.classOf[code] = this.classOf[letter.charCodeAt(0)]!;
    this.classes = classes;

    // The trie, in the transition table itself: 0 means no edge (the root is nobody's child).
    const table = new Int32Array(budget * classes);
    let states = 1;
    const ends = new Map<number, number[]>();
    for (const [text, ids] of usable) {
      let state = 0;
      for (let i = 0; i < text.length; i++) {
        const at = state * classes + this.classOf[text.charCodeAt(i)]!;
        if (table[at] === 0) table[at] = states++;
        state = table[at]!;
      }
      ends.set(state, ids);
    }
    // Breadth-first: each state's fail link, the literals it ends (its own and its fail state's),
    // and its missing transitions taken from the fail state, whose row is complete by then.
    const fail = new Int32Array(states);
    const out: Array<number[] | undefined> = new Array<number[] | undefined>(states);
    const queue = new Int32Array(states);
    let tail = 0;
    for (let cls = 1; cls < classes; cls++) if (table[cls] !== 0) queue[tail++] = table[cls]!;
    for (let head = 0; head < tail; head++) {
      const state = queue[head]!;
      const own = ends.get(state);
      const inherited = out[fail[state]!];
      out[state] = own !== undefined && inherited !== undefined ? [...own, ...inherited] : own ?? inherited;
      const row = state * classes;
      const failRow = fail[state]! * classes;
      for (let cls = 1; cls < classes; cls++) {
        const child = table[row + cls]!;
        if (child !== 0) {
          fail[child] = table[failRow + cls]!;
          queue[tail++] = child;
        } else {
          table[row + cls] = table[failRow + cls]!;
        }
      }
    }
    // States become rows, complemented where literals end.
    this.next = table.subarray(0, states * classes);
    for (let i = 0; i < this.next.length; i++) this.next[i] = out[this.next[i]!] === undefined ? this.next[i]! * classes : ~(this.next[i]! * classes);
    this.outStart = new Int32Array(states + 1);
    for (let state = 0; state < states; state++) this.outStart[state + 1] = this.outStart[state]! + (out[state]?.length ?? 0);
    this.outIds = Int32Array.from(out.flatMap((ids) => ids ?? []));
    this.reported = new Int32Array(states);
  }

  /** The compiled automaton as bytes (this machine's byte order), for LiteralSet.fromBytes. */
  toBytes(): Uint8Array {
    const states = this.outStart.length - 1;
    const header = Int32Array.of(MAGIC, this.classes, states, this.outIds.length, this.skipped.length);
    const parts = [header, this.classOf, this.next, this.outStart, this.outIds, Int32Array.from(this.skipped)];
    const bytes = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), at);
      at += part.byteLength;
    }
    return bytes;
  }

  /**
   * The automaton `toBytes` wrote, or undefined when the sizes say the bytes are not one (another
   * byte order, another layout, cut short); the caller makes sure they are the bytes written. Building it again costs tens of milliseconds for thousands of
   * literals; reading it, a copy.
   */
  static fromBytes(bytes: Uint8Array): LiteralSet | undefined {
    if (bytes.byteLength < 20 || bytes.byteLength % 4 !== 0) return undefined;
    // One aligned copy, viewed in parts.
    const buffer = new Uint8Array(bytes).buffer;
    const ints = (at: number, count: number): Int32Array<ArrayBuffer> => new Int32Array(buffer, at, count);
    const [magic, classes, states, outIds, skipped] = ints(0, 5) as unknown as number[];
    if (magic !== MAGIC || !(classes! >= 1 && classes! <= MAX_CLASSES) || !(states! >= 1) || !(outIds! >= 0) || !(skipped! >= 0)) return undefined;
    const sizes = [65536 / 4, states! * classes!, states! + 1, outIds!, skipped!];
    if (bytes.byteLength !== 20 + sizes.reduce((n, size) => n + size * 4, 0)) return undefined;
    let at = 20 + 65536;
    const take = (count: number): Int32Array<ArrayBuffer> => {
      const part = ints(at, count);
      at += count * 4;
      return part;
    };
    const classOf = new Uint8Array(buffer, 20, 65536);
    const next = take(sizes[1]!);
    const outStart = take(sizes[2]!);
    const ids = take(sizes[3]!);
    const left = [...take(sizes[4]!)];
    // The sizes agree; the caller checks the bytes are the ones toBytes wrote (a checksum).
    if (outStart[0] !== 0 || outStart[states!] !== ids.length) return undefined;
    return new LiteralSet([], { classOf, classes: classes!, next, outStart, outIds: ids, skipped: left });
  }

  /**
   * Appends to `found` the id of each literal occurring in `text`. An id may appear more than
   * once, but each state's literals are reported once per text, so `found` stays as small as the
   * automaton however long or repetitive the text.
   */
  search(text: string, found: number[]): void {
    const { classOf, next, outStart, outIds, classes, reported } = this;
    const search = ++this.searches;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      const target = next[row + classOf[text.charCodeAt(i)]!]!;
      if (target >= 0) {
        row = target;
        continue;
      }
      row = ~target;
      const state = row / classes;
      if (reported[state] === search) continue;
      reported[state] = search;
      for (let k = outStart[state]!; k < outStart[state + 1]!; k++) found.push(outIds[k]!);
    }
  }
}
