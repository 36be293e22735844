// SARIF 2.1.0 for code-scanning tools: one rule per entry, levels from priorities, locations,
// partial fingerprints, and never the raw text of a secret-like match.
import type { Priority } from '../types.js';
import type { CheckReport } from './_evaluate.js';
import type { Finding } from './scan.js';

const INVALID_RULE = 'lore-invalid-knowledge';

const LEVEL: Record<Priority, 'error' | 'warning' | 'note'> = { critical: 'error', high: 'warning', medium: 'note', low: 'note' };

/** A finding in one sentence, without secret-like text: SARIF's message and the CI annotations'. */
export function findingMessage(f: Finding): string {
  if (f.kind === 'path') return `${f.title}: ${f.path} matches ${f.matcher}`;
  if (f.kind === 'role') return `${f.title}: ${f.path} is one of the paths ${f.matcher}`;
  return `${f.title}: added line matches ${f.matcher}${f.secret ? ' (the matched text is secret-like and not shown)' : `: ${f.text}`}`;
}

/** The SARIF log of a check's active findings (suppressed ones are marked as such). */
export function toSarif(report: CheckReport, version: string): object {
  const all: Array<Finding & { suppression?: string }> = [
    ...report.outcome.active,
    ...report.outcome.suppressed.map((f) => ({ ...f, suppression: f.reason })),
    ...report.outcome.allowed.map((f) => ({ ...f, suppression: `allowed by ${f.allowFile}` })),
  ];
  const rules = [...new Map(all.map((f) => [f.entryId, f])).values()].map((f) => ({
    id: f.entryId,
    shortDescription: { text: f.title },
    defaultConfiguration: { level: LEVEL[f.priority] },
    properties: { priority: f.priority, source: f.ruleFile },
  }));
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const results: object[] = all.map((f) => ({
    ruleId: f.entryId,
    ruleIndex: index.get(f.entryId)!,
    level: LEVEL[f.priority],
    message: { text: findingMessage(f) },
    locations: [{
      physicalLocation: {
        artifactLocation: { uri: f.path.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' },
        ...(f.line === undefined ? {} : { region: { startLine: f.line, ...(f.column === undefined ? {} : { startColumn: f.column }) } }),
      },
    }],
    partialFingerprints: { 'loreFinding/v1': f.fingerprint },
    ...(f.commit === undefined ? {} : { properties: { commit: f.commit } }),
    ...(f.suppression === undefined ? {} : { suppressions: [{ kind: 'inSource', justification: f.suppression }] }),
  }));
  // Knowledge in the change that does not validate blocks it: one rule for all such problems.
  if (report.invalid.length > 0) rules.push({ id: INVALID_RULE, shortDescription: { text: 'Knowledge file does not parse or validate' }, defaultConfiguration: { level: 'error' }, properties: { priority: 'critical', source: '.knowledge/' } });
  for (const p of report.invalid) {
    const file = p.file.replace(/^[0-9a-f]{12}:/, '');
    results.push({
      ruleId: INVALID_RULE, ruleIndex: rules.length - 1, level: 'error', message: { text: `${p.pointer === undefined ? '' : `${p.pointer}: `}${p.message}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: file.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }, ...(p.line === undefined ? {} : { region: { startLine: p.line, ...(p.column === undefined ? {} : { startColumn: p.column }) } }) } }],
      partialFingerprints: { 'loreFinding/v1': `invalid:${file}:${p.pointer ?? p.line ?? ''}` },
    });
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'lore', version, informationUri: 'https://github.com/lore-knowledge/lore', rules } }, results }],
  };
}
