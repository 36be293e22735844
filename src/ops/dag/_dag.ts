// What the DAG operations share: one Dag per workspace, replayed once and brought up to date
// before each call (another process may have appended, or switched the current project), the
// listener of its events, and the notes every call gives.
import { join } from 'node:path';
import type { Problem } from '../../errors.js';
import { Dag } from '../../dag/dag.js';
import type { DagEventSink } from '../../dag/events.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { OpContext } from '../_define.js';

/** The project a call works on, when not the current one. */
export interface ProjectInput {
  project?: string;
}

// A listener is not state loaded from the store: it says where this run's events go (the CLI's
// --log-level). Keyed by workspace, so it lives exactly as long as the run that set it.
const listeners = new WeakMap<Workspace, DagEventSink>();

/** Sends the events of the workspace's DAG (loads, appends, skipped lines) to `sink`. */
export function listenToDag(ws: Workspace, sink: DagEventSink): void {
  listeners.set(ws, sink);
}

/** A problem as one line of text (and its frame), for a note. */
export function problemText(problem: Problem): string {
  const where = [problem.file, problem.line, problem.column].filter((part) => part !== undefined).join(':');
  const lines = [`${where}: ${problem.severity}: ${problem.message}`];
  if (problem.frame !== undefined) lines.push(problem.frame.replace(/^/gm, '  '));
  return lines.join('\n');
}

/**
 * The DAG of the workspace's store, up to date. It is opened (the log replayed) once per workspace
 * and kept until config.yaml changes; each call only checks the log's signature and reloads when
 * another process changed it. Lines of the log that were skipped are noted.
 */
export async function openDag({ ws, note }: OpContext): Promise<Dag> {
  const dag = await ws.remember('dag', async () => [join((await ws.store()).root, '.knowledge', 'config.yaml')], async () => {
    const store = await ws.store();
    const project = store.config.project;
    return Dag.open({ root: store.root, onEvent: (event) => listeners.get(ws)?.(event), ...(project === undefined ? {} : { defaultProject: project }) });
  });
  await dag.refresh();
  for (const problem of dag.problems) note(problemText({ ...problem, severity: 'warning' }));
  return dag;
}

/** `{ project }` when the input names one. */
export function projectOf(input: ProjectInput): ProjectInput {
  return input.project === undefined ? {} : { project: input.project };
}
