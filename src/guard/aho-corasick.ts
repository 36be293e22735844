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

  constructor(literals: ReadonlyArray<{ id: number; text: string }>) {
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
