// A long line (a minified bundle, a line of data) is searched only around the places where a
// rule's required literal occurs, when the rule's matches have a bounded length: the regex then
// runs over a few windows instead of megabytes, once for each rule whose literal the line holds.
// The answer is the whole line's, exactly: tests/guard-long-lines.test.ts compares the two.

import type { SafeRegex } from '../match/regex.js';
import { fold } from './aho-corasick.js';
import type { RequiredLiteral } from './literals.js';

/** Lines shorter than this are searched whole: windows would save little. */
export const LONG_LINE = 4096;
/** Patterns whose matches may be longer than this (in code units) are searched whole. */
export const MAX_WINDOW_WIDTH = 1024;
/**
 * Code units kept on each side past the farthest a match can reach, so that an assertion (`\b`,
 * `^`, `$`) at a match's ends sees the character next to it as the whole line has it, even one
 * written as a surrogate pair.
 */
const MARGIN = 2;

type Found = { index: number; text: string } | undefined;

/** The last line folded for a case-insensitive literal: every such rule the line reaches searches the same text. */
let folded: { subject: string; text: string } | undefined;

function foldedText(subject: string): string {
  if (folded?.subject !== subject) folded = { subject, text: fold(subject) };
  return folded.text;
}

/** Lets go of the last long line folded (scan calls it when done: the daemon lives on). */
export function forgetFolded(): void {
  folded = undefined;
}

/**
 * Code units of line per window, at least: a search per window costs a few microseconds before it
 * reads a character, so a line where the literal is denser is searched whole.
 */
const UNITS_PER_WINDOW = 2048;

/**
 * The first match of `regex` in `subject`, as regex.find(subject) gives it, where every match of
 * `regex` holds `literal` and is at most `width` code units long. Each match then lies within
 * `width` of an occurrence of the literal: the occurrences' windows (that reach, and MARGIN more),
 * merged where they overlap, are searched in order. No match in a window can start before its
 * MARGIN or end in the one at its end (it would hold an occurrence outside the window), so what a
 * window finds is a match of the line, and the first window's is the line's first. A line with
 * more windows than one per `unitsPerWindow` units is searched whole.
 */
export function findAround(regex: SafeRegex, subject: string, literal: RequiredLiteral, width: number, unitsPerWindow = UNITS_PER_WINDOW): Found {
  const haystack = literal.ignoreCase ? foldedText(subject) : subject;
  const reach = width + MARGIN;
  const most = Math.floor(subject.length / unitsPerWindow);
  // The windows as start and end offsets, merged where they overlap.
  const windows: number[] = [];
  for (let at = haystack.indexOf(literal.text); at !== -1; at = haystack.indexOf(literal.text, at + 1)) {
    const from = Math.max(0, at + literal.text.length - reach);
    const to = Math.min(subject.length, at + reach);
    if (windows.length > 0 && from <= windows[windows.length - 1]!) windows[windows.length - 1] = to;
    else if (windows.push(from, to) > 2 * most) return regex.find(subject);
  }
  for (let k = 0; k < windows.length; k += 2) {
    const found = regex.find(subject.slice(windows[k], windows[k + 1]));
    if (found !== undefined) return { index: windows[k]! + found.index, text: found.text };
  }
  return undefined;
}
