// How text captured from what happened (a turn, a review comment) becomes a learning's title and
// sentences. Plain loops, no regular expression that could backtrack over untrusted text.

/** The longest title taken from captured text; a person edits it on approval. */
export const TITLE_CHARS = 120;

const isSpace = (c: string | undefined): boolean => c === undefined || c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * The first sentence or line of a text as a title: at most TITLE_CHARS characters (cut at a word,
 * with an ellipsis), no final full stop, a capital first letter.
 *
 * @example
 * titleFrom('missing session timeout handling. Also the logout.'); // → 'Missing session timeout handling'
 */
export function titleFrom(text: string): string {
  const trimmed = text.trim();
  let end = trimmed.length;
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed[i]!;
    if (c === '\n') {
      end = i;
      break;
    }
    if ((c === '.' || c === '!' || c === '?') && isSpace(trimmed[i + 1])) {
      end = c === '.' ? i : i + 1;
      break;
    }
  }
  // A text that opens with its full stop (". and then") keeps its words rather than give no title.
  let out = trimmed.slice(0, end).trim() || trimmed;
  if (out.length > TITLE_CHARS) {
    const cut = out.lastIndexOf(' ', TITLE_CHARS - 1);
    out = `${out.slice(0, cut > TITLE_CHARS / 2 ? cut : TITLE_CHARS - 1)}…`;
  }
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/**
 * A text as a sentence: trimmed, with a full stop unless it ends in . ! or ?.
 *
 * @example
 * asSentence(' missing tests '); // → 'missing tests.'
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  const last = trimmed[trimmed.length - 1];
  return last === '.' || last === '!' || last === '?' ? trimmed : `${trimmed}.`;
}
