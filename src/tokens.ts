// The token count lore budgets prompt text with: about four characters per token, the usual
// rule of thumb for English text and code with common tokenizers. An estimate, documented as one.

/** The estimated number of tokens in `text` (characters / 4, rounded up). */
export function estimateTokens(text: string): number {
  return tokensOfLength(text.length);
}

/** estimateTokens of a text of this many characters, for callers that keep a running length. */
export function tokensOfLength(length: number): number {
  return Math.ceil(length / 4);
}
