// The token-efficient summary of selected knowledge: one line per entry, most important first,
// within a token budget — except that a critical prohibition is never cut.
import type { KnowledgeEntry, KnowledgeType } from '../types.js';
import { estimateTokens, tokensOfLength } from '../tokens.js';
import { byText } from '../text-order.js';


/** The default summary budget, in (approximate) tokens. */
export const DEFAULT_BUDGET = 800;

/**
 * Approximate token count: one token per four characters, rounded up — the usual rule of thumb
 * for English text with GPT-style tokenizers. Cheap and deterministic, which matters more here
 * than matching one model's tokenizer exactly.
 */
const VERB: Record<KnowledgeType, string> = { prohibition: 'AVOID', recommendation: 'DO', learning: 'LEARNED' };

const isCritical = (entry: KnowledgeEntry): boolean => entry.type === 'prohibition' && entry.priority === 'critical';

function fullLine(entry: KnowledgeEntry): string {
  return `- ${VERB[entry.type]} [${entry.priority}] ${entry.title}: ${entry.description}`;
}

function shortLine(entry: KnowledgeEntry): string {
  return `- ${VERB[entry.type]} [${entry.priority}] ${entry.title}`;
}

const omittedNote = (count: number): string => `(+${count} more left out for the token budget; lore query --json lists them)`;

export interface SummaryItem {
  entry: KnowledgeEntry;
  score: number;
}

/**
 * One line per entry: critical prohibitions first (always, in full), then the rest by score
 * (ties by id). An entry that does not fit in full gets its title only; when even that does not
 * fit, it and everything after it are left out and a last line says how many.
 *
 * @example
 * buildSummary([{ entry, score: 1 }], 800); // → '- AVOID [critical] Never commit .env files: ...'
 */
export function buildSummary(items: readonly SummaryItem[], budget: number = DEFAULT_BUDGET): string {
  if (items.length === 0) return 'No relevant knowledge for this task.';
  // Each item's sort key read once, not per comparison (a plan check can summarise a thousand).
  const ordered = items.map((item) => ({ entry: item.entry, critical: Number(isCritical(item.entry)), score: item.score, id: item.entry.id }));
  ordered.sort((a, b) => b.critical - a.critical || b.score - a.score || byText(a.id, b.id));
  const reserve = estimateTokens(`\n${omittedNote(items.length)}`);
  const lines: string[] = [];
  // The length of lines.join('\n'), kept as lines are added: hundreds of critical lines are not joined again per line.
  let length = -1;
  const fits = (line: string): boolean => tokensOfLength(length + 1 + line.length) <= budget - reserve;
  const add = (line: string): void => void (lines.push(line), (length += 1 + line.length));
  let index = 0;
  for (; index < ordered.length; index++) {
    const { entry, critical } = ordered[index]!;
    const full = fullLine(entry);
    if (critical === 1 || fits(full)) add(full);
    else if (fits(shortLine(entry))) add(shortLine(entry));
    else break;
  }
  if (index < ordered.length) lines.push(omittedNote(ordered.length - index));
  return lines.join('\n');
}
