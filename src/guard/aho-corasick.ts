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
  let folded = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  for (const [code, letter] of ASCII_FOLDS) folded = folded.replaceAll(String.fromCharCode(code), letter);
  return folded;
}

/** Alphabets larger than this leave the literals that need more classes out of the automaton. */
const MAX_CLASSES = 255;

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
  /** Ids of literals left out because the alphabet was full: the caller must not rely on them. */
  readonly skipped: number[] = [];

  constructor(literals: ReadonlyArray<{ id: number; text: string }>) {
    let classes = 1;
    const usable: Array<{ id: number; text: string }> = [];
    for (const literal of literals) {
      const text = fold(literal.text);
      const fresh = new Set<number>();
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (this.classOf[code] === 0) fresh.add(code);
      }
      if (classes + fresh.size > MAX_CLASSES) {
        this.skipped.push(literal.id);
        continue;
      }
      for (const code of fresh) this.classOf[code] = classes++;
      usable.push({ id: literal.id, text });
    }
    // Upper-case ASCII shares its lower-case letter's class; so do the long s and the Kelvin sign.
    for (let code = 0x61; code <= 0x7a; code++) this.classOf[code - 0x20] = this.classOf[code]!;
    for (const [code, letter] of ASCII_FOLDS) this.classOf[code] = this.classOf[letter.charCodeAt(0)]!;
    this.classes = classes;

    // The trie, then every missing transition filled from the fail state (breadth-first).
    const trie: Array<Map<number, number>> = [new Map()];
    const out: number[][] = [[]];
    for (const { id, text } of usable) {
      let state = 0;
      for (let i = 0; i < text.length; i++) {
        const cls = this.classOf[text.charCodeAt(i)]!;
        let target = trie[state]!.get(cls);
        if (target === undefined) {
          target = trie.push(new Map()) - 1;
          out.push([]);
          trie[state]!.set(cls, target);
        }
        state = target;
      }
      out[state]!.push(id);
    }
    const goto = new Int32Array(trie.length * classes);
    const fail = new Int32Array(trie.length);
    const queue: number[] = [];
    for (const [cls, target] of trie[0]!) {
      goto[cls] = target;
      queue.push(target);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      out[state]!.push(...out[fail[state]!]!);
      for (let cls = 1; cls < classes; cls++) {
        const target = trie[state]!.get(cls);
        if (target !== undefined) {
          fail[target] = goto[fail[state]! * classes + cls]!;
          goto[state * classes + cls] = target;
          queue.push(target);
        } else {
          goto[state * classes + cls] = goto[fail[state]! * classes + cls]!;
        }
      }
    }
    this.next = goto.map((target) => (out[target]!.length > 0 ? ~(target * classes) : target * classes));
    this.outStart = new Int32Array(trie.length + 1);
    for (let s = 0; s < trie.length; s++) this.outStart[s + 1] = this.outStart[s]! + out[s]!.length;
    this.outIds = Int32Array.from(out.flat());
  }

  /** Appends to `found` the id of each literal occurring in `text` (an id may appear more than once). */
  search(text: string, found: number[]): void {
    const { classOf, next, outStart, outIds, classes } = this;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      const target = next[row + classOf[text.charCodeAt(i)]!]!;
      if (target >= 0) {
        row = target;
        continue;
      }
      row = ~target;
      const state = row / classes;
      for (let k = outStart[state]!; k < outStart[state + 1]!; k++) found.push(outIds[k]!);
    }
  }
}
