// The longest literal text a regular expression cannot match without, used as a prefilter: a
// line that lacks it cannot match, so the regex is not run on it. Conservative by construction:
// anything not understood ends the current run of literal characters.

export interface RequiredLiteral {
  text: string;
  /** The pattern is case-insensitive: compare lower-cased. Such literals are ASCII only. */
  ignoreCase: boolean;
}

const META = new Set(['.', '^', '$', '|', '(', ')', '[', ']', '{', '}', '*', '+', '?', '\\']);
const MIN_LENGTH = 3;

/** Index just past the group or class that starts at `start`. */
function skipBracketed(source: string, start: number): number {
  const [open, close] = source[start] === '[' ? ['[', ']'] : ['(', ')'];
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === open && open === '(') depth++;
    else if (source[i] === close && (open === '[' ? i > start + 1 || source[i - 1] !== '[' : true) && --depth <= 0) return i + 1;
    else if (source[i] === '[' && open === '(') i = skipBracketed(source, i) - 1;
    else if (open === '[' && i === start) depth = 1;
  }
  return source.length;
}

/** The required literal of an RE2 pattern, or undefined when there is none of useful length. */
export function requiredLiteral(source: string): RequiredLiteral | undefined {
  let pattern = source;
  let ignoreCase = false;
  const flags = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (flags !== null) {
    if (/[^i]/.test(flags[1]!)) return undefined; // other flags change what literals mean
    ignoreCase = true;
    pattern = pattern.slice(flags[0].length);
  }
  // Flags set part-way ("ab(?i)cd") change what the rest means, and in \Q...\E a quantifier after
  // \E applies to the last quoted character only: no literal for either.
  if (/\(\?[a-zA-Z-]+\)/.test(pattern) || pattern.includes('\\Q')) return undefined;
  // A top-level alternation means no single literal is required.
  for (let i = 0, depth = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') i = skipBracketed(pattern, i) - 1;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return undefined;
  }
  let best = '';
  let run = '';
  const end = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    let literal: string | undefined;
    let next = i + 1;
    if (c === '\\') {
      const e = pattern[i + 1] ?? '';
      next = i + 2;
      literal = /[^A-Za-z0-9]/.test(e) && e !== '' ? e : undefined; // \. \- \/ are literal; \d \w \b \x.. are not
    } else if (c === '[' || c === '(') {
      next = skipBracketed(pattern, i);
    } else if (c >= '\uD800' && c <= '\uDBFF' && /[\uDC00-\uDFFF]/.test(pattern[i + 1] ?? '')) {
      // A character outside the BMP is two code units, and a quantifier after it applies to both.
      literal = pattern.slice(i, i + 2);
      next = i + 2;
    } else if (!META.has(c)) {
      literal = c;
    }
    // Case folding beyond ASCII is RE2's (ς, σ and Σ are one letter): only ASCII is compared case-insensitively.
    if (ignoreCase && literal !== undefined && literal.charCodeAt(0) >= 0x80) literal = undefined;
    const quantifier = pattern[next];
    const optional = quantifier === '*' || quantifier === '?' || (quantifier === '{' && /^\{0[,}]/.test(pattern.slice(next)));
    if (literal !== undefined && !optional) run += literal;
    if (literal === undefined || optional || quantifier === '+' || quantifier === '{') end();
    // Skip the quantifier itself ({2,5}, *, +, ?) and a lazy '?' after it.
    if (quantifier === '{') next = pattern.indexOf('}', next) + 1 || pattern.length;
    else if (quantifier === '*' || quantifier === '+' || quantifier === '?') next++;
    if (next > i + 1 && pattern[next] === '?' && /[*+?}]/.test(pattern[next - 1] ?? '')) next++;
    i = next - 1;
  }
  end();
  if (best.length < MIN_LENGTH) return undefined;
  return { text: ignoreCase ? best.toLowerCase() : best, ignoreCase };
}
