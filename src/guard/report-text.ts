// The check's report for people (text and markdown): what was scanned, every finding with how to
// proceed, and the verdict. Never a silent all-clear.
import type { CheckReport } from './_evaluate.js';
import type { Finding, Scanned } from './scan.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
// Not toLocaleString: loading Intl costs the hook more than the rest of the report.
const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "staged change: 3 files, 42 added lines, 1,204 bytes" */
export function scannedLine(report: CheckReport): string {
  const s: Scanned = report.scanned;
  const what = report.mode === 'staged' ? 'the staged change' : report.mode === 'range' ? `${report.range!.spec} (${plural(s.commits, 'commit')} from ${report.range!.mergeBase.slice(0, 12)})` : 'working-tree files';
  const role = report.role === undefined ? '' : `; role ${report.role.role} (from ${report.role.source})`;
  return `scanned ${what}: ${plural(s.files, 'file')}, ${plural(s.lines, 'added line')}, ${thousands(s.bytes)} bytes against ${plural(report.rules.applied, 'prohibition')} (${report.rules.fromChange} from the change itself)${role}`;
}

/** The pre-commit hook's whole report when a change passes cleanly: "passed: no match for 12 prohibitions in 3 files, 42 added lines". */
export function passedLine(report: CheckReport): string {
  const s: Scanned = report.scanned;
  const fromChange = report.rules.fromChange > 0 ? ` (${report.rules.fromChange} from the change)` : '';
  const role = report.role === undefined ? '' : `; role ${report.role.role}`;
  return `passed: no match for ${plural(report.rules.applied, 'prohibition')}${fromChange} in ${plural(s.files, 'file')}, ${thousands(s.lines)} added line${s.lines === 1 ? '' : 's'}${role}`;
}

/** What a person can do about a finding. */
export function howToProceed(f: Finding): string {
  if (f.kind === 'role') return `this change is outside what the ${f.entryId.replace(/^ROLE-/, '')} may do; hand it to the right role (or unset LORE_ROLE / git config lore.role if that is not your role)`;
  if (f.priority === 'critical') {
    return f.kind === 'path'
      ? `take the file out of the commit (${f.change === 'added' ? 'git rm --cached' : 'git restore --staged'} -- ${JSON.stringify(f.path)}); if it must be committed, add an allowlist record in .knowledge/allow/ and have it reviewed`
      : 'remove the match from the change; if it is a false positive, add an allowlist record in .knowledge/allow/ and have it reviewed';
  }
  return f.kind === 'path' ? 'check that this path should change, or add an allowlist record' : `fix the line, or mark it: lore-allow: ${f.entryId} reason="..." on the line or the line above`;
}

function where(f: Finding): string {
  const at = [f.path, f.line, f.column].filter((p) => p !== undefined).join(':');
  return f.commit === undefined ? at : `${f.commit.slice(0, 12)} ${at}`;
}

/** One finding as text lines. */
export function findingLines(f: Finding, label: string): string[] {
  const what = f.kind === 'path' ? `path matches ${f.matcher}` : f.kind === 'role' ? `matches ${f.matcher}` : `matched ${JSON.stringify(f.text)} (${f.matcher})`;
  const origin = f.origin === 'change' ? ' [rule added by this change]' : '';
  // A rule of an extends source (its file is labelled extends:<source>/...) says where it comes from.
  const source = f.ruleFile.startsWith('extends:') ? ` (from ${f.ruleFile.slice('extends:'.length).split('/')[0]})` : '';
  return [`${label} ${f.entryId} [${f.priority}] ${f.title}${source}${origin}`, `  ${where(f)}: ${what}`, `  how to proceed: ${howToProceed(f)}`];
}

/** The verdict line. */
export function verdict(report: CheckReport): string {
  const active = report.outcome.active;
  const critical = active.filter((f) => f.priority === 'critical').length;
  if (report.invalid.length > 0) {
    const files = new Set(report.invalid.map((p) => p.file)).size;
    const also = critical > 0 ? ` and ${plural(critical, 'critical finding')}` : '';
    return `blocked: ${plural(files, 'knowledge file')} in the change ${files === 1 ? 'does' : 'do'} not validate (${plural(report.invalid.length, 'problem')})${also}`;
  }
  if (critical > 0) return `blocked: ${plural(critical, 'critical finding')}${active.length > critical ? ` and ${plural(active.length - critical, 'warning')}` : ''}`;
  return active.length > 0 ? `passed with ${plural(active.length, 'warning')}` : 'passed: no prohibition matched';
}

/** The whole report as markdown, e.g. for a pull-request comment. */
export function toMarkdown(report: CheckReport): string {
  const lines = [`### lore check: ${verdict(report)}`, '', scannedLine(report), ''];
  for (const p of report.invalid) lines.push(`- ⛔ \`${[p.file, p.line].filter((x) => x !== undefined).join(':')}\`${p.pointer === undefined ? '' : ` ${p.pointer}`}: ${p.message}`);
  if (report.invalid.length > 0) lines.push('');
  const { active, suppressed, allowed, baselined, notes } = report.outcome;
  if (active.length > 0) {
    lines.push('| | entry | priority | where | what |', '|---|---|---|---|---|');
    for (const f of active) lines.push(`| ${f.priority === 'critical' ? '⛔' : '⚠️'} | \`${f.entryId}\` ${f.title} | ${f.priority} | \`${where(f)}\` | ${f.kind === 'content' ? `\`${f.text.replace(/`/g, "'")}\`` : f.matcher} |`);
    lines.push('');
  }
  const quiet = [suppressed.length && plural(suppressed.length, 'suppressed finding'), allowed.length && `${allowed.length} allowed by .knowledge/allow/`, baselined.length && `${baselined.length} in the baseline`].filter(Boolean);
  if (quiet.length > 0) lines.push(`Also: ${quiet.join(', ')}.`, '');
  for (const note of notes) lines.push(`- ${note}`);
  return `${lines.join('\n').trimEnd()}\n`;
}
