// Aho-Corasick: finds which of many literals occur in a text in one pass over the text.

interface State {
  next: Map<string, number>;
  fail: number;
  /** Ids of the literals that end here (including through fail links). */
  out: number[];
}

/** A compiled set of literals; `search` returns the ids of those found. */
export class LiteralSet {
  private readonly states: State[] = [{ next: new Map(), fail: 0, out: [] }];

  constructor(literals: ReadonlyArray<{ id: number; text: string }>) {
    for (const { id, text } of literals) {
      let state = 0;
      for (const char of text) {
        let target = this.states[state]!.next.get(char);
        if (target === undefined) {
          target = this.states.push({ next: new Map(), fail: 0, out: [] }) - 1;
          this.states[state]!.next.set(char, target);
        }
        state = target;
      }
      this.states[state]!.out.push(id);
    }
    // Breadth-first: each state's fail link points at the longest proper suffix that is a prefix.
    const queue = [...this.states[0]!.next.values()];
    for (let head = 0; head < queue.length; head++) {
      const state = this.states[queue[head]!]!;
      for (const [char, target] of state.next) {
        let fail = state.fail;
        while (fail !== 0 && !this.states[fail]!.next.has(char)) fail = this.states[fail]!.fail;
        const candidate = this.states[fail]!.next.get(char);
        const link = candidate !== undefined && candidate !== target ? candidate : 0;
        this.states[target]!.fail = link;
        this.states[target]!.out.push(...this.states[link]!.out);
        queue.push(target);
      }
    }
  }

  /** The ids of the literals occurring in `text`, each once. */
  search(text: string, found: Set<number> = new Set()): Set<number> {
    let state = 0;
    for (const char of text) {
      while (state !== 0 && !this.states[state]!.next.has(char)) state = this.states[state]!.fail;
      state = this.states[state]!.next.get(char) ?? 0;
      for (const id of this.states[state]!.out) found.add(id);
    }
    return found;
  }
}
