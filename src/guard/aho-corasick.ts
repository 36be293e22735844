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
export function fold(text: string): string {
  if (!/[A-Z\u017f\u212a]/.test(text)) return text;
  let folded = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  for (const [code, letter] of ASCII_FOLDS) folded = folded.replaceAll(String.fromCharCode(code), letter);
  return folded;
}

/** Alphabets larger than this leave the literals that need more classes out of the automaton. */
const MAX_CLASSES = 255;
/** So do literals beyond this many states in all: the table stays under 64 MiB whatever the store holds. */
const MAX_STATES = 1 << 16;

/** Marks bytes written by toBytes (and their byte order): "AC02" as a little-endian int32. */
const MAGIC = 0x32304341;
/** The header toBytes writes: MAGIC, classes, states, the first accepting state, outIds, skipped. */
const HEADER_INTS = 6;

/** What toBytes saves. */
interface Saved {
  classOf: Uint8Array<ArrayBuffer>;
  classes: number;
  next: Uint16Array<ArrayBuffer>;
  accepting: number;
  outStart: Int32Array<ArrayBuffer>;
  outIds: Int32Array<ArrayBuffer>;
  skipped: number[];
}

/** A compiled set of literals, ASCII letters matched in any case; `search` collects the ids of those found. */
export class LiteralSet {
  /** Character code → alphabet class (0: in no literal). */
  private readonly classOf: Uint8Array<ArrayBuffer> = new Uint8Array(65536);
  private readonly classes: number;
  /**
   * Transitions: next[state × classes + class] is the next state. States are numbered so that
   * those where literals end come last, from `accepting` on: one comparison says whether a
   * character ended a literal. At most 65,536 states, so two bytes each.
   */
  private readonly next: Uint16Array<ArrayBuffer>;
  private readonly accepting: number;
  /** Ids of the literals ending in each state, including through fail links: outIds[outStart[s]..outStart[s+1]]. */
  private readonly outStart: Int32Array<ArrayBuffer>;
  private readonly outIds: Int32Array<ArrayBuffer>;
  /** Per state, the search that last reported its literals: each is reported once per text. */
  private readonly reported: Int32Array;
  private searches = 0;
  /** Ids of literals left out (alphabet or table full): their matchers must run without a prefilter. */
  readonly skipped: number[] = [];

  constructor(literals: ReadonlyArray<{ id: number; text: string }>, saved?: Saved) {
    if (saved !== undefined) {
      ({ classOf: this.classOf, classes: this.classes, next: this.next, accepting: this.accepting, outStart: this.outStart, outIds: this.outIds, skipped: this.skipped } = saved);
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
      // An empty literal would end at the root: it filters nothing, so its matcher always runs.
      if (text === '' || classes + fresh.size > MAX_CLASSES || budget + text.length > MAX_STATES) {
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
    // Renumbered: states where no literal ends first (the root stays 0), then those where some do.
    const renumber = new Int32Array(states);
    let number = 0;
    for (let state = 0; state < states; state++) if (out[state] === undefined) renumber[state] = number++;
    this.accepting = number;
    for (let state = 0; state < states; state++) if (out[state] !== undefined) renumber[state] = number++;
    this.next = new Uint16Array(states * classes);
    this.outStart = new Int32Array(states + 1);
    const byNumber = new Array<number[] | undefined>(states);
    for (let state = 0; state < states; state++) {
      const row = renumber[state]! * classes;
      for (let cls = 0; cls < classes; cls++) this.next[row + cls] = renumber[table[state * classes + cls]!]!;
      byNumber[renumber[state]!] = out[state];
    }
    for (let state = 0; state < states; state++) this.outStart[state + 1] = this.outStart[state]! + (byNumber[state]?.length ?? 0);
    this.outIds = Int32Array.from(byNumber.flatMap((ids) => ids ?? []));
    this.reported = new Int32Array(states);
  }

  /** The compiled automaton as bytes (this machine's byte order), for LiteralSet.fromBytes. */
  toBytes(): Uint8Array {
    const states = this.outStart.length - 1;
    const header = Int32Array.of(MAGIC, this.classes, states, this.accepting, this.outIds.length, this.skipped.length);
    // The two-byte table is padded to four, so every part after it starts aligned.
    const padding = new Uint8Array(this.next.byteLength % 4);
    const parts = [header, this.classOf, this.next, padding, this.outStart, this.outIds, Int32Array.from(this.skipped)];
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
   * byte order, another layout, cut short); the caller makes sure they are the bytes written.
   * Building it again costs tens of milliseconds for thousands of literals; reading it, nothing
   * when the bytes start at a multiple of four in their buffer (it is read in place), else a copy.
   */
  static fromBytes(bytes: Uint8Array): LiteralSet | undefined {
    if (bytes.byteLength < HEADER_INTS * 4 || bytes.byteLength % 4 !== 0) return undefined;
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    const { buffer, byteOffset } = aligned as Uint8Array<ArrayBuffer>;
    const [magic, classes, states, accepting, outIds, skipped] = new Int32Array(buffer, byteOffset, HEADER_INTS) as unknown as number[];
    if (magic !== MAGIC || !(classes! >= 1 && classes! <= MAX_CLASSES) || !(states! >= 1 && states! <= MAX_STATES) || !(accepting! >= 1 && accepting! <= states!) || !(outIds! >= 0) || !(skipped! >= 0)) return undefined;
    const cells = states! * classes!;
    const tableBytes = cells * 2 + ((cells * 2) % 4);
    if (bytes.byteLength !== HEADER_INTS * 4 + 65536 + tableBytes + (states! + 1 + outIds! + skipped!) * 4) return undefined;
    let at = byteOffset + HEADER_INTS * 4;
    const classOf = new Uint8Array(buffer, at, 65536);
    at += 65536;
    const next = new Uint16Array(buffer, at, cells);
    at += tableBytes;
    const take = (count: number): Int32Array<ArrayBuffer> => {
      const part = new Int32Array(buffer, at, count);
      at += count * 4;
      return part;
    };
    const outStart = take(states! + 1);
    const ids = take(outIds!);
    const left = [...take(skipped!)];
    // The sizes agree; the caller checks the bytes are the ones toBytes wrote (a checksum).
    if (outStart[0] !== 0 || outStart[states!] !== ids.length) return undefined;
    return new LiteralSet([], { classOf, classes: classes!, next, accepting: accepting!, outStart, outIds: ids, skipped: left });
  }

  /**
   * Appends to `found` the id of each literal occurring in `text`. An id may appear more than
   * once, but each state's literals are reported once per text, so `found` stays as small as the
   * automaton however long or repetitive the text.
   */
  search(text: string, found: number[]): void {
    const { classOf, next, outStart, outIds, classes, accepting, reported } = this;
    // A long-lived process (lore serve) searches without end: the marks start again before they wrap.
    if (this.searches === 0x7fffffff) {
      this.reported.fill(0);
      this.searches = 0;
    }
    const search = ++this.searches;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = next[state * classes + classOf[text.charCodeAt(i)]!]!;
      if (state < accepting || reported[state] === search) continue;
      reported[state] = search;
      for (let k = outStart[state]!; k < outStart[state + 1]!; k++) found.push(outIds[k]!);
    }
  }
}
