// SARIF 2.1.0 for code-scanning tools: one rule per entry, levels from priorities, locations,
// partial fingerprints, and never the raw text of a secret-like match.
import type { Priority } from '../types.js';
import type { CheckReport } from './_evaluate.js';
import type { Finding } from './scan.js';

const LEVEL: Record<Priority, 'error' | 'warning' | 'note'> = { critical: 'error', high: 'warning', medium: 'note', low: 'note' };

function message(f: Finding): string {
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
  const results = all.map((f) => ({
    ruleId: f.entryId,
    ruleIndex: index.get(f.entryId)!,
    level: LEVEL[f.priority],
    message: { text: message(f) },
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
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'lore', version, informationUri: 'https://github.com/lore-knowledge/lore', rules } }, results }],
  };
}
