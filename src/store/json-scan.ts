// One pass over JSON text without building values: checks the syntax (RFC 8259), the nesting
// depth and repeated keys, and finds where JSON pointers sit. Iterative, so no nesting can
// overflow the stack, and it holds only the open containers: memory is bounded by the depth
// limit, whatever the size of the text. JSON.parse builds the value once the scan passes.

/** Where a scan stopped, and why (a sentence without the location). */
export interface ScanFault {
  offset: number;
  message: string;
  kind: 'syntax' | 'depth' | 'duplicate';
}

/** The range of a JSON pointer's value (and of its key, in an object), filled in by a scan. */
export interface PointerTarget {
  children: Map<string, PointerTarget>;
  start?: number;
  end?: number;
  keyStart?: number;
  keyEnd?: number;
}

export interface ScanOptions {
  /** Containers nested deeper than this are a fault. */
  maxDepth: number;
  /** Whether a key repeated in one object is a fault. */
  duplicates?: boolean;
  /** Pointers to locate: the root of a tree of targets, filled in as the scan passes them. */
  targets?: PointerTarget;
}

interface Frame {
  object: boolean;
  /** Items seen so far (the index of the next array item). */
  count: number;
  /** The key whose value comes next (objects). */
  key: string;
  keys: Set<string> | undefined;
  target: PointerTarget | undefined;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const STRING_STOP = /["\\\u0000-\u001f]/g;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9A-Fa-f]{4}$/;

/** A new, empty tree of pointer targets. */
export function pointerTargets(): PointerTarget {
  return { children: new Map() };
}

/** Adds a JSON pointer to a tree of targets; returns the target its range will be recorded in. */
export function addPointer(root: PointerTarget, pointer: string): PointerTarget[] {
  const path = [root];
  if (pointer === '') return path;
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    let child = node.children.get(segment);
    if (child === undefined) node.children.set(segment, (child = { children: new Map() }));
    path.push(child);
    node = child;
  }
  return path;
}

/**
 * Scans JSON text; returns the first fault, or undefined when the text is one valid JSON value
 * within the limits. Targets given in the options get the ranges of the values they point at.
 */
export function scanJson(text: string, options: ScanOptions): ScanFault | undefined {
  const n = text.length;
  const stack: Frame[] = [];
  let i = 0;
  const found = (at: number): string => (at >= n ? 'the end of the text' : `'${text[at]}'`);
  const syntax = (at: number, message: string): ScanFault => ({ offset: at, message, kind: 'syntax' });
  const skipSpace = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    }
  };
  /** Moves past the string opening at i; a fault when it is not a valid string. */
  const skipString = (): ScanFault | undefined => {
    const open = i;
    let at = i + 1;
    for (;;) {
      STRING_STOP.lastIndex = at;
      const stop = STRING_STOP.exec(text);
      if (stop === null) return syntax(open, 'a string is never closed (expected \'"\')');
      at = stop.index;
      const c = text.charCodeAt(at);
      if (c === 0x22) break;
      if (c < 0x20) return syntax(at, `a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')}) inside a string; write it as an escape such as \\n`);
      const escape = text[at + 1];
      if (escape === 'u') {
        if (!HEX4.test(text.slice(at + 2, at + 6))) return syntax(at, 'expected four hex digits after \\u');
        at += 6;
      } else if (escape !== undefined && ESCAPES.has(escape)) {
        at += 2;
      } else {
        return syntax(at, escape === undefined ? 'a string is never closed (expected \'"\')' : `\\${escape} is not a JSON escape (use \\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX)`);
      }
    }
    i = at + 1;
    return undefined;
  };
  const keyOf = (start: number, end: number): string => {
    const raw = text.slice(start + 1, end - 1);
    return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
  };
  /** The target of the value about to start in the innermost container (or at the top). */
  const childTarget = (): PointerTarget | undefined => {
    if (stack.length === 0) return options.targets;
    const frame = stack[stack.length - 1]!;
    return frame.target?.children.get(frame.object ? frame.key : String(frame.count));
  };
  /** Closes a value that ended at i: records its end, then expects what follows it. */
  const finishValue = (target: PointerTarget | undefined): void => {
    if (target !== undefined) target.end = i;
    if (stack.length > 0) stack[stack.length - 1]!.count++;
  };

  // The parser's states: expecting a value, a key (or '}' right after '{'), or what follows a value.
  let state: 'value' | 'first-value' | 'key' | 'first-key' | 'after' = 'value';
  for (;;) {
    skipSpace();
    if (state === 'value' || state === 'first-value') {
      if (state === 'first-value' && text[i] === ']') {
        i++;
        finishValue(stack.pop()!.target);
        state = 'after';
        continue;
      }
      const target = childTarget();
      if (target !== undefined) target.start = i;
      const c = text[i];
      if (c === '{' || c === '[') {
        if (stack.length >= options.maxDepth) return { offset: i, message: `nested more than ${options.maxDepth} levels deep`, kind: 'depth' };
        const object = c === '{';
        stack.push({ object, count: 0, key: '', keys: object && options.duplicates === true ? new Set() : undefined, target });
        i++;
        state = object ? 'first-key' : 'first-value';
        continue;
      }
      if (c === '"') {
        const fault = skipString();
        if (fault !== undefined) return fault;
      } else if (c === 't' && text.startsWith('true', i)) {
        i += 4;
      } else if (c === 'f' && text.startsWith('false', i)) {
        i += 5;
      } else if (c === 'n' && text.startsWith('null', i)) {
        i += 4;
      } else {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return syntax(i, `expected a value (found ${found(i)})`);
        i = NUMBER.lastIndex;
      }
      finishValue(target);
      state = 'after';
      continue;
    }
    if (state === 'key' || state === 'first-key') {
      const frame = stack[stack.length - 1]!;
      if (state === 'first-key' && text[i] === '}') {
        i++;
        stack.pop();
        finishValue(frame.target);
        state = 'after';
        continue;
      }
      if (text[i] !== '"') return syntax(i, `expected a property name in double quotes (found ${found(i)})`);
      const start = i;
      const fault = skipString();
      if (fault !== undefined) return fault;
      if (frame.keys !== undefined || (frame.target !== undefined && frame.target.children.size > 0)) {
        frame.key = keyOf(start, i);
        if (frame.keys !== undefined) {
          if (frame.keys.has(frame.key)) return { offset: start, message: `the key ${JSON.stringify(frame.key)} appears twice in one object; keys must be unique`, kind: 'duplicate' };
          frame.keys.add(frame.key);
        }
        const target = frame.target?.children.get(frame.key);
        if (target !== undefined) {
          target.keyStart = start;
          target.keyEnd = i;
        }
      }
      skipSpace();
      if (text[i] !== ':') return syntax(i, `expected ':' after the property name (found ${found(i)})`);
      i++;
      state = 'value';
      continue;
    }
    // After a value: the end of the text at the top, else ',' or the container's close.
    if (stack.length === 0) return i < n ? syntax(i, `expected the end of the text after the value (found ${found(i)})`) : undefined;
    const frame = stack[stack.length - 1]!;
    const close = frame.object ? '}' : ']';
    if (text[i] === ',') {
      i++;
      state = frame.object ? 'key' : 'value';
    } else if (text[i] === close) {
      i++;
      stack.pop();
      finishValue(frame.target);
    } else {
      return syntax(i, frame.object ? `expected ',' or '}' after a property value (found ${found(i)})` : `expected ',' or ']' after an array item (found ${found(i)})`);
    }
  }
}
