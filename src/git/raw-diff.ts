// Parsing git's raw diff output read with -z (works on strings): which paths a change touches,
// how, and the blob on each side. NUL-separated, so a path may hold any byte but NUL — newlines,
// tabs, quotes — and no setting (core.quotePath, diff.noprefix, colours) changes what is read.

/** One changed path: `:<old mode> <new mode> <old blob> <new blob> <status>` and its path(s). */
export interface RawChange {
  /** A added, M modified, T type changed, R renamed, C copied, D deleted, U unmerged, X unknown. */
  status: string;
  /** Rename or copy similarity (0-100), when given. */
  score?: number;
  oldMode: string;
  newMode: string;
  /** All zeros when the path did not exist before. */
  oldBlob: string;
  /** All zeros when the path is deleted (or not in the index yet). */
  newBlob: string;
  path: string;
  /** For renames and copies: the path it came from. */
  oldPath?: string;
}

/** A section of `git diff-tree --stdin --always` output: the commit and its changes against one parent. */
export interface CommitChanges {
  commit: string;
  changes: RawChange[];
}

/** Whether a blob id means "no file" (all zeros). */
export function isNullBlob(blob: string): boolean {
  return /^0+$/.test(blob);
}

function parseMeta(meta: string): Omit<RawChange, 'path' | 'oldPath'> {
  // ":100644 100644 <old> <new> M"
  const [oldMode, newMode, oldBlob, newBlob, status] = meta.slice(1).split(' ');
  if (status === undefined) throw new Error(`cannot read git's raw diff entry ${JSON.stringify(meta)}`);
  const score = status.length > 1 ? Number(status.slice(1)) : undefined;
  return { status: status[0]!, ...(score === undefined ? {} : { score }), oldMode: oldMode!, newMode: newMode!, oldBlob: oldBlob!, newBlob: newBlob! };
}

/**
 * Reads raw entries from `fields` (the output split at NUL) starting at `start`, until a field
 * that does not begin an entry; returns them and where it stopped.
 */
function readEntries(fields: readonly string[], start: number): { changes: RawChange[]; next: number } {
  const changes: RawChange[] = [];
  let i = start;
  while (i < fields.length && fields[i]!.startsWith(':')) {
    const meta = parseMeta(fields[i]!);
    // Renames and copies name two paths (from, then to); everything else one.
    if (meta.status === 'R' || meta.status === 'C') {
      changes.push({ ...meta, oldPath: fields[i + 1]!, path: fields[i + 2]! });
      i += 3;
    } else {
      changes.push({ ...meta, path: fields[i + 1]! });
      i += 2;
    }
    if (i > fields.length) throw new Error("git's raw diff output ended inside an entry");
  }
  return { changes, next: i };
}

function fieldsOf(text: string): string[] {
  const fields = text.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
}

/**
 * Parses `git diff-index -z --raw` (or `diff-tree -z --raw` of two trees) output.
 *
 * @example
 * parseRawDiff(':000000 100644 0000000 e69de29 A\0.env\0'); // → [{ status: 'A', path: '.env', ... }]
 */
export function parseRawDiff(text: string): RawChange[] {
  const fields = fieldsOf(text);
  const { changes, next } = readEntries(fields, 0);
  if (next !== fields.length) throw new Error(`unexpected field in git's raw diff output: ${JSON.stringify(fields[next]!.slice(0, 80))}`);
  return changes;
}

/**
 * Parses `git diff-tree --stdin --always -z --raw` output: for each line given, the commit id and
 * its changes, in input order (a commit with nothing changed still has its section).
 */
export function parseDiffTreeOutput(text: string): CommitChanges[] {
  const fields = fieldsOf(text);
  const sections: CommitChanges[] = [];
  let i = 0;
  while (i < fields.length) {
    const commit = fields[i]!;
    if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new Error(`expected a commit id in git diff-tree output, found ${JSON.stringify(commit.slice(0, 80))}`);
    const { changes, next } = readEntries(fields, i + 1);
    sections.push({ commit, changes });
    i = next;
  }
  return sections;
}
