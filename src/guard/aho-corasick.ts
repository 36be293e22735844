// Aho-Corasick compiled to a dense DFA: finds which of many literals occur in a text in one pass,
// with two array reads per character. Characters that occur in no literal share one class.

/** A compiled set of literals; `search` reports the ids of those found. */
export class LiteralSet {
  /** Character code → alphabet class (0: in no literal). */
  private readonly classOf = new Uint8Array(65536);
  private readonly classes: number;
  /** next[state * classes + class] → state. */
  private readonly next: Int32Array;
  /** Ids of the literals that end at each state (including through fail links); empty for most. */
  private readonly out: number[][];

  constructor(literals: ReadonlyArray<{ id: number; text: string }>) {
    let classes = 1;
    const codes = new Map<number, number>();
    for (const { text } of literals) {
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (!codes.has(code) && classes < 255) codes.set(code, classes++);
      }
    }
    for (const [code, cls] of codes) this.classOf[code] = cls;
    this.classes = classes;
    // Build the trie, then fill every missing transition from the fail state (breadth-first).
    const trie: Array<Map<number, number>> = [new Map()];
    const out: number[][] = [[]];
    for (const { id, text } of literals) {
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
    const next = new Int32Array(trie.length * classes);
    const fail = new Int32Array(trie.length);
    const queue: number[] = [];
    for (let cls = 0; cls < classes; cls++) {
      const target = trie[0]!.get(cls);
      if (target !== undefined && cls !== 0) {
        next[cls] = target;
        queue.push(target);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      out[state]!.push(...out[fail[state]!]!);
      for (let cls = 0; cls < classes; cls++) {
        const target = trie[state]!.get(cls);
        if (target !== undefined && cls !== 0) {
          fail[target] = next[fail[state]! * classes + cls]!;
          next[state * classes + cls] = target;
          queue.push(target);
        } else {
          next[state * classes + cls] = next[fail[state]! * classes + cls]!;
        }
      }
    }
    this.next = next;
    this.out = out;
  }

  /** Calls `found` with the id of each literal occurring in `text` (an id may be reported more than once). */
  search(text: string, found: (id: number) => void): void {
    const { classOf, classes, next, out } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = next[state * classes + classOf[text.charCodeAt(i)]!]!;
      const ids = out[state]!;
      for (let k = 0; k < ids.length; k++) found(ids[k]!);
    }
  }
}
