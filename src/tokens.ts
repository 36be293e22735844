// The token count lore budgets prompt text with: about four characters per token, the usual
// rule of thumb for English text and code with common tokenizers. An estimate, documented as one.

/** The estimated number of tokens in `text` (characters / 4, rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
