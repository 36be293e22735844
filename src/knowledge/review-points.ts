// Review feedback as distinct points, parsed from text (no I/O). Two inputs:
// - GitHub's JSON: pull-request review comments (`gh api repos/O/R/pulls/N/comments`), reviews
//   (`pulls/N/reviews`), conversation comments (`issues/N/comments`), an array of pages
//   (`gh api --paginate --slurp`), or `gh pr view --json comments,reviews`. A comment is one point,
//   unless its body is a list of two or more items; a reply in a thread is not a point of its own.
// - A plain list: each paragraph (lines up to a blank line) and each list item (-, *, +, 1.) is a
//   point; fenced code stays with its point; headings only separate.
// A point with fewer than three words that carry meaning ("LGTM", "Done, thanks") is skipped.
import { UsageError, ValidationError, type Problem } from '../errors.js';
import { parseJson, withPositions } from '../store/json-text.js';
import { terms } from './_text.js';

/** The most points one review may hold: a larger export is refused, not cut short. */
export const MAX_POINTS = 1000;
/** The longest review text accepted, in bytes (GitHub caps a comment at 65,536 characters). */
export const MAX_REVIEW_BYTES = 16 * 1024 * 1024;
/** Meaningful words a point needs. */
const MIN_TERMS = 3;

export interface ReviewPoint {
  /** The point, as written (markdown). */
  text: string;
  /** Where it came from: the comment's URL, else path:line, else the input's file:line or item. */
  ref: string;
  /** Who made it (a GitHub login). */
  author?: string;
  /** The file and line a comment is on. */
  location?: string;
  /** A review's state (APPROVED, CHANGES_REQUESTED, COMMENTED, ...). */
  state?: string;
  /** The pull request a URL names: owner/repo#N. */
  pullRequest?: string;
}

export interface SkippedPoint {
  ref: string;
  reason: string;
}

export interface ParsedReview {
  format: 'github' | 'plain';
  points: ReviewPoint[];
  skipped: SkippedPoint[];
}

/**
 * The points of a review: GitHub JSON when the text starts with [ or {, a plain list otherwise.
 * Malformed JSON, or JSON of another shape, is a ValidationError naming the file, line and column.
 *
 * @example
 * parseReview('- Close the file handle when parse throws\n- Retry with backoff on 429 answers\n', 'notes.md').points.map((p) => p.ref);
 * // → ['notes.md:1', 'notes.md:2']
 */
export function parseReview(text: string, file: string): ParsedReview {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = body.trimStart()[0];
  const parsed = first === '[' || first === '{' ? githubPoints(body, file) : plainPoints(body, file);
  if (parsed.points.length > MAX_POINTS) {
    throw new UsageError(`${file} holds ${parsed.points.length} review points, more than the ${MAX_POINTS} captured at once`, 'split the review into smaller files');
  }
  return parsed;
}

/** A point kept, or skipped when it says too little. */
function keep(out: ParsedReview, point: ReviewPoint): void {
  const text = point.text.trim();
  if (text === '') out.skipped.push({ ref: point.ref, reason: 'no text' });
  else if (terms(text).length < MIN_TERMS) out.skipped.push({ ref: point.ref, reason: `too short to be a point: ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text)}` });
  else out.points.push({ ...point, text });
}

const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?: |\t|$)/;
const FENCE = /^ {0,3}(?:```|~~~)/;
const HEADING = /^ {0,3}#{1,6}(?: |\t|$)/;

/** The parts of a text: paragraphs and list items, each with its first line (from 1); headings dropped. */
function splitParts(text: string): Array<{ text: string; line: number }> {
  const parts: Array<{ text: string; line: number }> = [];
  let current: { lines: string[]; line: number } | undefined;
  let fenced = false;
  const close = (): void => {
    if (current !== undefined) parts.push({ text: current.lines.join('\n'), line: current.line });
    current = undefined;
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!fenced && raw.trim() === '') return close();
    if (!fenced && HEADING.test(raw)) return close();
    const item = !fenced && LIST_ITEM.exec(raw);
    if (item) {
      close();
      current = { lines: [raw.slice(item[0].length)], line: i + 1 };
    } else {
      current ??= { lines: [], line: i + 1 };
      current.lines.push(raw);
    }
    if (FENCE.test(raw)) fenced = !fenced;
  });
  close();
  return parts;
}

/** How many list items a text has outside fenced code. */
function listItems(text: string): number {
  let fenced = false;
  let count = 0;
  for (const line of text.split('\n')) {
    if (!fenced && LIST_ITEM.test(line)) count++;
    if (FENCE.test(line)) fenced = !fenced;
  }
  return count;
}

function plainPoints(text: string, file: string): ParsedReview {
  const out: ParsedReview = { format: 'plain', points: [], skipped: [] };
  for (const part of splitParts(text)) keep(out, { text: part.text, ref: `${file}:${part.line}` });
  return out;
}

/** owner/repo#N from a pull request's web or API URL. */
function pullRequestOf(url: string | undefined): string | undefined {
  if (url === undefined || url.length > 2000) return undefined;
  const match = /^https?:\/\/[^/\s]+\/(?:api\/v3\/)?(?:repos\/)?([^/\s]+)\/([^/\s]+)\/pulls?\/(\d+)(?:[/#?]|$)/.exec(url);
  return match === null ? undefined : `${match[1]}/${match[2]}#${match[3]}`;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The items of a GitHub export, each with its JSON pointer; problems when it has another shape. */
function githubItems(value: unknown, file: string): { items: Array<[string, unknown]>; problems: Problem[] } {
  const items: Array<[string, unknown]> = [];
  const problems: Problem[] = [];
  const fromArray = (list: unknown[], at: string, pages: boolean): void => list.forEach((item, i) => {
    if (pages && Array.isArray(item)) fromArray(item, `${at}/${i}`, false);
    else items.push([`${at}/${i}`, item]);
  });
  if (Array.isArray(value)) fromArray(value, '', true);
  else if (isObject(value) && (Array.isArray(value.comments) || Array.isArray(value.reviews))) {
    for (const key of ['comments', 'reviews'] as const) {
      const list = value[key];
      if (Array.isArray(list)) fromArray(list, `/${key}`, false);
      else if (list !== undefined) problems.push({ severity: 'error', file, pointer: `/${key}`, message: `${key} must be an array of GitHub ${key}` });
    }
  } else {
    problems.push({ severity: 'error', file, pointer: '', message: 'expected GitHub review comments: an array of comments or reviews (gh api repos/O/R/pulls/N/comments), or an object with comments and reviews arrays (gh pr view --json comments,reviews)' });
  }
  return { items, problems };
}

function githubPoints(body: string, file: string): ParsedReview {
  const value = parseJson(body, file, 'GitHub review comments (JSON)');
  const { items, problems } = githubItems(value, file);
  const out: ParsedReview = { format: 'github', points: [], skipped: [] };
  for (const [pointer, item] of items) {
    if (!isObject(item)) {
      problems.push({ severity: 'error', file, pointer, message: `a review comment must be an object with a body (found ${Array.isArray(item) ? 'an array' : item === null ? 'null' : typeof item})` });
      continue;
    }
    if (item.body !== null && typeof item.body !== 'string') {
      problems.push({ severity: 'error', file, pointer: `${pointer}${'body' in item ? '/body' : ''}`, message: 'body' in item ? `body must be text (found ${Array.isArray(item.body) ? 'an array' : typeof item.body})` : 'a review comment must have a body' });
      continue;
    }
    const url = text(item.html_url) ?? text(item.url);
    const line = item.line ?? item.original_line;
    const path = text(item.path);
    const location = path === undefined ? undefined : typeof line === 'number' ? `${path}:${line}` : path;
    const author = text((item.user as Json | undefined)?.login) ?? text((item.author as Json | undefined)?.login);
    const point: Omit<ReviewPoint, 'text'> = {
      ref: url ?? location ?? `${file}#${pointer}`,
      ...(author === undefined ? {} : { author }),
      ...(location === undefined ? {} : { location }),
      ...(text(item.state) === undefined ? {} : { state: item.state as string }),
    };
    const pullRequest = pullRequestOf(text(item.pull_request_url)) ?? pullRequestOf(url);
    if (pullRequest !== undefined) point.pullRequest = pullRequest;
    if (item.in_reply_to_id !== undefined && item.in_reply_to_id !== null) {
      out.skipped.push({ ref: point.ref, reason: 'a reply in a thread (its first comment is the point)' });
      continue;
    }
    const comment = typeof item.body === 'string' ? item.body : '';
    const parts = listItems(comment) >= 2 ? splitParts(comment).map((p) => p.text) : [comment];
    for (const part of parts) keep(out, { ...point, text: part });
  }
  if (problems.length > 0) throw new ValidationError(`${file} is not a GitHub review export lore reads`, withPositions(problems, body));
  return out;
}
