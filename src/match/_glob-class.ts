// Character classes (`[a-z]`, `[^.]`) read exactly as micromatch reads them: micromatch copies a
// class into a JavaScript regex, so its ranges, escapes and a lone `]` follow JavaScript's rules,
// and a class whose text has no regex syntax also matches itself literally (`[ab]` matches the
// name "[ab]" too). Whatever micromatch would read differently from how it looks is refused.

/** A parsed class: code-unit ranges (inclusive), and the literal text it also matches, if any. */
export interface GlobClass {
  negated: boolean;
  ranges: Array<[number, number]>;
  /** micromatch's literal alternative: `[ab]` also matches the text "[ab]". */
  literal?: string;
  /** Index just past the closing `]`. */
  end: number;
}

const POSIX_HINTS: Record<string, string> = {
  alnum: '[a-zA-Z0-9]', alpha: '[a-zA-Z]', digit: '[0-9]', lower: '[a-z]', upper: '[A-Z]', xdigit: '[0-9A-Fa-f]', word: '[a-zA-Z0-9_]',
};

// What micromatch's test for regex syntax in a class looks for (its REGEX_SPECIAL_CHARS).
const REGEX_SYNTAX = /[-*+?.^${}(|)[\]]/;

const isSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdfff;
const show = (code: number): string => String.fromCharCode(code);

function refuseClassChar(glob: string, at: number): never {
  const posix = /^\[:([a-z]+):\]/.exec(glob.slice(at));
  if (posix !== null) {
    const hint = POSIX_HINTS[posix[1]!];
    throw new Error(`POSIX class [:${posix[1]}:] is not supported: ${hint === undefined ? 'list the characters or a range instead' : `write ${hint} instead`}`);
  }
  throw new Error('a class cannot contain [ (micromatch reads [: as the start of a POSIX class): write \\[ outside a class for a literal [');
}

/** Reads the class whose `[` is at `start` (a `]` follows somewhere); throws a reason when it is refused. */
export function parseClass(glob: string, start: number): GlobClass {
  let i = start + 1;
  let negated = false;
  if (glob[i] === '!') throw new Error('[!...] is ambiguous (micromatch reads ! as a character, POSIX shells negate): write [^...] to negate, or [\\!...] to match !');
  if (glob[i] === '^') {
    negated = true;
    i++;
  }
  // `content` is the class as micromatch copies it into its regex; `atoms` are its characters.
  let content = negated ? '^' : '';
  const atoms: Array<{ code: number; dash: boolean }> = [];
  let closed = false;
  while (i < glob.length) {
    const char = glob[i]!;
    const code = char.charCodeAt(0);
    if (char === '\\') {
      const next = glob[i + 1];
      if (next === undefined) break;
      // micromatch drops a backslash before / . ; and reads the character on its own.
      if (next === '/' || next === '.' || next === ';') {
        i++;
        continue;
      }
      if (next === '\\') throw new Error('a glob cannot match a backslash (lore reads \\ in paths as /)');
      if (/[A-Za-z0-9]/.test(next)) throw new Error(`\\${next} in a class has no glob meaning (micromatch reads it as a regex escape): write ${next} for the character, or a range`);
      if (isSurrogate(next.charCodeAt(0))) throw new Error(`a class cannot contain ${glob.slice(i + 1, i + 3)} (micromatch matches characters outside the Basic Multilingual Plane by halves): write {${glob.slice(i + 1, i + 3)},...} instead`);
      atoms.push({ code: next.charCodeAt(0), dash: false });
      content += char + next;
      i += 2;
      continue;
    }
    if (char === ']') {
      if (content === '' || content === '^') {
        // A ] first in the class is a character, as in micromatch and JavaScript.
        atoms.push({ code, dash: false });
        content += '\\]';
        i++;
        continue;
      }
      closed = true;
      i++;
      break;
    }
    if (char === '[') refuseClassChar(glob, i);
    if (isSurrogate(code)) throw new Error(`a class cannot contain ${glob.slice(i, i + 2)} (micromatch matches characters outside the Basic Multilingual Plane by halves): write {${glob.slice(i, i + 2)},...} instead`);
    // A - right before the closing ] is a character (micromatch escapes it).
    const dash = char === '-' && glob[i + 1] !== ']';
    atoms.push({ code, dash });
    content += dash || char !== '-' ? char : '\\-';
    i++;
  }
  if (!closed) throw new Error(`the class at character ${start + 1} is not closed: write \\[ for a literal [`);
  const ranges = classRanges(atoms, negated);
  const literal = REGEX_SYNTAX.test(content) ? undefined : `[${content.replace(/\\([\s\S])/g, '$1')}]`;
  return { negated, ranges, ...(literal === undefined ? {} : { literal }), end: i };
}

/** JavaScript's reading of a class body: `a-z` is a range unless the - is first or last. */
function classRanges(atoms: ReadonlyArray<{ code: number; dash: boolean }>, negated: boolean): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let k = 0; k < atoms.length; k++) {
    const low = atoms[k]!.code;
    if (k + 2 < atoms.length && atoms[k + 1]!.dash) {
      const high = atoms[k + 2]!.code;
      if (low > high) throw new Error(`the range ${JSON.stringify(`${show(low)}-${show(high)}`)} is reversed: write ${JSON.stringify(`${show(high)}-${show(low)}`)}`);
      ranges.push([low, high]);
      k += 2;
    } else {
      ranges.push([low, low]);
    }
  }
  // micromatch adds / to a negated class; a plain class that holds / would match across folders.
  const slash = ranges.find(([low, high]) => low <= 0x2f && 0x2f <= high);
  if (!negated && slash !== undefined) {
    const [low, high] = slash;
    if (low === high) throw new Error('a class cannot match / (a path separator): remove / from the class');
    const below = low === 0x2f ? '' : low === 0x2e ? '.' : `${show(low)}-.`;
    const above = high === 0x2f ? '' : high === 0x30 ? '0' : `0-${show(high)}`;
    throw new Error(`the range ${JSON.stringify(`${show(low)}-${show(high)}`)} includes / (a path separator): write ${JSON.stringify(below + above)} instead`);
  }
  return ranges;
}
