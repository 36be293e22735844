// A turn recorded on two branches: turn logs merge by union (`*.ndjson merge=union`), so after a
// merge both branches' lines for one turn id are in the file and replay keeps the one with the
// later timestamp. When both branches wrote different versions of the same turn, the other
// branch's values are hidden: `lore validate` says so, by looking at the merges git recorded.
import type { Problem } from '../errors.js';
import { git, gitOutcome } from '../git/exec.js';
import { readAtRef } from '../git/objects.js';
import { KNOWLEDGE_DIR, LOGS } from '../store/layout.js';

/** How many of the latest merges touching a turn log are looked at. */
const MAX_MERGES = 50;

/** The lines of each id in a log text (raw, in file order); lines that are not a JSON object with an id are left out. */
function linesById(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as { id?: unknown };
      if (typeof value.id !== 'string') continue;
      const lines = out.get(value.id) ?? [];
      lines.push(line.trim());
      out.set(value.id, lines);
    } catch {
      // validate reports unreadable lines on its own
    }
  }
  return out;
}

/** The lines of a log at a commit (none when the file is not there). */
async function logAt(where: { cwd: string; env?: NodeJS.ProcessEnv }, commit: string, path: string): Promise<Map<string, string[]>> {
  const bytes = await readAtRef(where, commit, path);
  return linesById(bytes?.toString('utf8') ?? '');
}

/** The ids that gained lines on a side since the base, with that side's latest line. */
function added(base: Map<string, string[]>, side: Map<string, string[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, lines] of side) {
    const before = new Set(base.get(id) ?? []);
    if (lines.some((line) => !before.has(line))) out.set(id, lines[lines.length - 1]!);
  }
  return out;
}

/**
 * A warning for each turn id that both parents of a merge recorded (or updated) with different
 * lines since their merge base, in the turn logs tracked at HEAD. Outside a git repository, or
 * without merges, there is nothing to say.
 */
export async function turnMergeForks(root: string, env?: NodeJS.ProcessEnv): Promise<Problem[]> {
  const where = { cwd: root, ...(env === undefined ? {} : { env }) };
  const turns = `${KNOWLEDGE_DIR}/${LOGS.turnsDir}`;
  const listed = await gitOutcome(['--literal-pathspecs', 'ls-files', '-z', '--', turns], where);
  if (listed.code !== 0) return [];
  const problems: Problem[] = [];
  for (const path of listed.output.split('\0').filter((p) => p.endsWith('.ndjson'))) {
    const merges = await git(['rev-list', '--merges', '--full-history', '--parents', `--max-count=${MAX_MERGES}`, 'HEAD', '--', path], where).catch(() => '');
    for (const line of merges.split('\n').filter(Boolean)) {
      const [merge, first, second, ...more] = line.split(' ');
      if (second === undefined || more.length > 0) continue;
      const base = (await git(['merge-base', first!, second], where).catch(() => '')).trim();
      if (base === '') continue;
      const [atBase, atFirst, atSecond] = await Promise.all([base, first!, second].map((commit) => logAt(where, commit, path)));
      const ours = added(atBase!, atFirst!);
      const theirs = added(atBase!, atSecond!);
      for (const [id, lineOurs] of ours) {
        const lineTheirs = theirs.get(id);
        if (lineTheirs === undefined || lineTheirs === lineOurs) continue;
        problems.push({
          severity: 'warning', file: path,
          message: `turn ${id} was recorded on both branches of merge ${merge!.slice(0, 12)} with different values (${first!.slice(0, 12)} and ${second.slice(0, 12)}): lore reads the version with the later timestamp, and the other branch's values are hidden; record the turn again with the values that hold`,
        });
      }
    }
  }
  return problems;
}
