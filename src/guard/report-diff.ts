// `lore diff` as one pull-request comment: what weakens enforcement first, then every change by kind.
import { KINDS, RECORD_KINDS } from '../store/layout.js';
import type { KnowledgeDiff, RecordChange } from './knowledge-diff.js';

function describe(change: RecordChange): string {
  const head = `${change.change} \`${change.id}\`${change.title === change.id ? '' : ` ${change.title}`}${change.source === undefined ? '' : ` (from ${change.source})`}`;
  return change.fields.length === 0 ? head : `${head}: ${change.fields.map((f) => f.summary).join('; ')}`;
}

/** The diff as markdown. */
export function diffToMarkdown(diff: KnowledgeDiff): string {
  const lines = [`## lore diff ${diff.spec}`, ''];
  const risky = [
    ...diff.records.filter((r) => r.risk === 'weakens').map((r) => `${KINDS[r.kind].label.replace(/s$/, '')} ${describe(r)}`),
    ...diff.config.filter((c) => c.risk === 'weakens').map((c) => `config.yaml: ${c.summary}`),
  ];
  const total = diff.records.length + diff.config.length + diff.logs.length + diff.newProblems.length + diff.sources.length;
  if (total === 0) return `${lines.join('\n')}\nNo changes to .knowledge/ between ${diff.base.slice(0, 12)} and ${diff.head.slice(0, 12)}.\n`;
  if (risky.length > 0) {
    lines.push(`**${risky.length} change${risky.length === 1 ? '' : 's'} weaken${risky.length === 1 ? 's' : ''} enforcement — review first:**`, '');
    lines.push(...risky.map((r) => `- ⚠️ ${r}`), '');
  }
  if (diff.sources.length > 0) {
    const short = (commit: string | null): string => (commit === null ? 'not pinned' : commit.slice(0, 12));
    lines.push('### Extends sources', '', ...diff.sources.map((s) => `- \`${s.name}\`: pin ${s.before === null ? 'added' : s.after === null ? 'removed' : 'moved'} (${short(s.before)} → ${short(s.after)}); its changes are below, marked "from ${s.name}"`), '');
  }
  for (const kind of RECORD_KINDS) {
    const changes = diff.records.filter((r) => r.kind === kind);
    if (changes.length === 0) continue;
    const label = KINDS[kind].label;
    lines.push(`### ${label[0]!.toUpperCase()}${label.slice(1)}`, '');
    lines.push(...changes.map((c) => `- ${c.risk === 'weakens' ? '⚠️ ' : c.risk === 'strengthens' ? '⬆️ ' : ''}${describe(c)}`), '');
  }
  if (diff.config.length > 0) lines.push('### Configuration', '', ...diff.config.map((c) => `- ${c.risk === 'weakens' ? '⚠️ ' : ''}${c.summary}`), '');
  if (diff.logs.length > 0) {
    lines.push('### Logs', '', ...diff.logs.map((l) => `- \`${l.file}\`: ${l.added} line${l.added === 1 ? '' : 's'} appended${l.removed > 0 ? `, ${l.removed} removed (pruned or compacted)` : ''}`), '');
  }
  if (diff.newProblems.length > 0) {
    lines.push('### New problems (lore validate)', '', ...diff.newProblems.map((p) => `- \`${p.file}${p.line === undefined ? '' : `:${p.line}`}\` ${p.severity}: ${p.message}`), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
