// The thought DAG of a store: one project-tagged log, replayed into per-project state at open.
// Every write runs in one locked step of the NDJSON engine: refresh the state if another process
// changed the log, check, append, apply. Queries answer from the in-memory indexes.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno, LoreError, type Problem } from '../errors.js';
import { withLog } from '../log/ndjson.js';
import type { VersionRule } from '../log/versions.js';
import { displayPath, knowledgeDir, LOGS } from '../store/layout.js';
import type { ArtifactRef, DagNode } from '../types.js';
import { notFound, planAppend, type AppendInput } from './append.js';
import { readCurrentProject, writeCurrentProject } from './current-project.js';
import type { DagEventSink } from './events.js';
import { planMigration, readKgDir, type MigratedProject } from './migrate.js';
import { assertProjectName, distinctLocations, isProjectName, projectNameFromContext } from './project-name.js';
import { branches, DEFAULT_WINDOW, exportPlan, resume, type BranchHead, type PlanItem, type ResumeResult } from './queries.js';
import { planRemoval, type RemovalPlan } from './remove.js';
import { isNode, lineTime, loadDagState, type DagLine, type DagState } from './replay.js';
import type { ProjectState } from './state.js';
import { planSummary, type SummarizeInput } from './summarize.js';
import { byText } from '../text-order.js';

export interface DagOptions {
  /** The store root: the directory holding `.knowledge/`. */
  root: string;
  /** The project when none is current (config.yaml's `project`); default "default". */
  defaultProject?: string;
  /** Resume window (default 20). */
  window?: number;
  onEvent?: DagEventSink;
}

/** Which project a call works on: `project`, else the current one. */
export interface ProjectOption {
  project?: string;
}

export interface AppendResult {
  node: DagNode;
  /** The reviewed node, updated with the critic among its children (critic nodes only). */
  target?: DagNode;
  /** The artifacts the node names (an empty list when it names none). */
  artifacts: ArtifactRef[];
  /** A project-name collision, for instance. */
  warnings: string[];
}

/** A critic's review of a node of the current (or given) project. */
export interface CriticInput extends ProjectOption {
  target: string;
  verdict: AppendInput['verdict'] & string;
  verdictReason?: string;
  verdictReferences?: string[];
  /** Default: the reason, or the verdict. */
  thought?: string;
  tags?: string[];
  id?: string;
}

export interface ProjectInfo {
  name: string;
  nodes: number;
  artifacts: number;
  heads: number;
  /** The distinct projectContexts of its nodes. */
  contexts: string[];
  /** Two or more different directories give this name. */
  collision: boolean;
  current: boolean;
}

async function signatureOf(file: string): Promise<string> {
  try {
    const s = await stat(file);
    return `${s.ino}:${s.size}:${s.mtimeMs}`;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return 'missing';
    throw error;
  }
}

/** The thought DAG of one store. Open it with `Dag.open`. */
export class Dag {
  /** Lines of the log that were reported and skipped at the last load. */
  problems: Problem[] = [];
  readonly file: string;
  private state!: DagState;
  private signature = '';
  private readonly defaultProject: string;
  /** Refreshes and writes of this instance, one at a time (a long-lived process may overlap calls). */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: DagOptions, private current: string | undefined) {
    this.file = join(knowledgeDir(options.root), LOGS.dag);
    this.defaultProject = options.defaultProject !== undefined && isProjectName(options.defaultProject) ? options.defaultProject : 'default';
  }

  /**
   * Loads the log of the store at `root` (streaming) and builds every project's state.
   *
   * @example
   * const dag = await Dag.open({ root: '/home/me/my-repo' });
   * const { node } = await dag.append({ projectContext: '/home/me/my-repo', thought: 'Split the parser', tags: ['task'] });
   * dag.heads(); // [node]
   */
  static async open(options: DagOptions): Promise<Dag> {
    const dag = new Dag(options, await readCurrentProject(options.root));
    await dag.reload('load');
    return dag;
  }

  private async reload(reason: 'load' | 'log_changed'): Promise<void> {
    // Taken before reading: a line appended meanwhile makes the next write reload again, never miss it.
    this.signature = await signatureOf(this.file);
    const shown = displayPath(this.options.root, this.file);
    const loaded = await loadDagState(this.file, shown);
    this.state = loaded.state;
    this.problems = loaded.problems;
    const emit = this.options.onEvent ?? (() => undefined);
    for (const p of loaded.problems) emit({ event: 'line_skipped', level: 'warn', file: p.file, line: p.line, message: p.message });
    emit({ event: 'state_recompute', level: 'info', reason, lines: loaded.lines, skipped: loaded.problems.length, ...loaded.state.counts(), ms: Math.round(loaded.ms * 100) / 100 });
  }

  /** Reloads the state when another process changed the log since it was read. */
  private async catchUp(): Promise<void> {
    if ((await signatureOf(this.file)) !== this.signature) await this.reload('log_changed');
  }

  /** Runs `fn` after every refresh or write this instance started before it. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Brings a Dag that stays open up to date with what other processes did since: their appends to
   * the log (the state is reloaded only when the log changed) and a switch of the current project.
   * A process that keeps one Dag calls it before each query; writes do it under the log's lock.
   */
  async refresh(): Promise<void> {
    await this.exclusive(async () => {
      await this.catchUp();
      this.current = await readCurrentProject(this.options.root);
    });
  }

  /** The log's version rule: a line is stamped after the latest line of its (project, id), tombstones included. */
  private versions(): VersionRule<DagLine> {
    return {
      keyOf: (line) => `${line.project}\u0000${line.id}`,
      latest: (key) => this.state.latestTime(key),
      timeOf: lineTime,
      stamp: (line, at) => {
        if (isNode(line) && line.updatedAt !== undefined) line.updatedAt = at;
        else line.createdAt = at;
      },
    };
  }

  /**
   * Runs one write: under the log's lock, refresh the state, plan the lines, append them (stamped
   * by the version rule), apply them. The plan runs once before the lock too, so bad input fails
   * without waiting for it, and the slow first steps (a reload, compiling the schema) are not done
   * while others wait.
   */
  private write<T>(plan: () => { lines: DagLine[]; result: T }): Promise<T> {
    return this.exclusive(async () => {
      await this.catchUp();
      plan();
      return withLog(this.file, async (writer) => {
        await this.catchUp();
        const { lines, result } = plan();
        await writer.append(lines, this.versions());
        for (const line of lines) this.state.apply(line);
        this.signature = await signatureOf(this.file);
        for (const line of lines) {
          if (isNode(line)) this.options.onEvent?.({ event: 'node_append', level: 'info', id: line.id, project: line.project, role: line.role, update: line.updatedAt !== undefined });
        }
        return result;
      });
    });
  }

  /** The project a call works on: the given one, else the current one, else the default. */
  project(override?: string): string {
    if (override === undefined) return this.current ?? this.defaultProject;
    assertProjectName(override);
    return override;
  }

  /** The state of the project a call works on. */
  stateOf(options: ProjectOption = {}): ProjectState {
    return this.state.project(this.project(options.project));
  }

  /**
   * The node with this id (its latest version); throws NOT_FOUND. Its `children` are the nodes
   * naming it as a parent, as `children` (the query) gives them: after a union merge of two
   * branches that each reviewed it, the latest line of the node lists only its own branch's critic.
   */
  get(id: string, options: ProjectOption = {}): DagNode {
    const state = this.stateOf(options);
    const node = state.nodes.get(id);
    if (node === undefined) throw notFound(id, state);
    const derived = state.children(id).map((child) => child.id);
    const same = derived.length === node.children.length && derived.every((child, i) => node.children[i] === child);
    return same ? node : { ...node, children: derived };
  }

  /** The nodes whose parents include `id`, oldest first. */
  children(id: string, options: ProjectOption = {}): DagNode[] {
    this.get(id, options);
    return this.stateOf(options).children(id);
  }

  /** The parents of `id` that exist, in the node's order. */
  parents(id: string, options: ProjectOption = {}): DagNode[] {
    const state = this.stateOf(options);
    return this.get(id, options).parents.flatMap((p) => state.nodes.get(p) ?? []);
  }

  /** The nodes no node names as a parent, oldest first. */
  heads(options: ProjectOption = {}): DagNode[] {
    return this.stateOf(options).heads();
  }

  /** The heads with branch label and depth. */
  branches(options: ProjectOption = {}): BranchHead[] {
    return branches(this.stateOf(options));
  }

  /** The last `window` nodes of a branch, after the summaries that cover what lies beyond. */
  resume(idOrLabel: string, options: ProjectOption & { window?: number } = {}): ResumeResult {
    return resume(this.stateOf(options), idOrLabel, options.window ?? this.options.window ?? DEFAULT_WINDOW);
  }

  /** The plan view of the project, optionally only nodes with `tag`. */
  exportPlan(options: ProjectOption & { tag?: string } = {}): PlanItem[] {
    return exportPlan(this.stateOf(options), options);
  }

  /** Every project in the log, with counts and the directories that give its name. */
  projects(): ProjectInfo[] {
    return [...this.state.projects.values()].sort((a, b) => byText(a.name, b.name)).map((s) => ({
      name: s.name, nodes: s.nodes.size, artifacts: s.artifacts.size, heads: s.heads().length,
      contexts: s.contexts(), collision: distinctLocations(s.contexts()).length > 1, current: s.name === this.project(),
    }));
  }

  /** Makes `name` the current project (kept in .knowledge/.cache/). */
  async switchProject(name: string): Promise<{ project: string; previous: string; known: boolean }> {
    assertProjectName(name);
    const previous = this.project();
    await writeCurrentProject(this.options.root, name);
    this.current = name;
    return { project: name, previous, known: this.state.projects.has(name) };
  }

  /** Appends an actor (or critic) node; its project derives from projectContext and becomes the current one. */
  async append(input: AppendInput & ProjectOption): Promise<AppendResult> {
    const name = projectNameFromContext(input.projectContext);
    if (input.project !== undefined && input.project !== name) {
      throw new LoreError('USAGE', `projectContext ${JSON.stringify(input.projectContext)} gives project ${name}, not ${input.project}`);
    }
    const { project: _, ...node } = input;
    const result = await this.appendTo(name, node);
    if (this.current !== name) await this.switchProject(name);
    return result;
  }

  /** Appends a critic's review of `target` and, in the same locked step, the target updated with it as a child. */
  async critic(input: CriticInput): Promise<AppendResult> {
    const name = this.project(input.project);
    const target = this.get(input.target, input);
    const { project: _, thought, ...rest } = input;
    // The target's project, not one derived again from its context (a migrated node may differ).
    return this.appendTo(name, { ...rest, role: 'critic', projectContext: target.projectContext, thought: thought ?? input.verdictReason ?? input.verdict });
  }

  private async appendTo(name: string, input: AppendInput): Promise<AppendResult> {
    const plan = await this.write(() => {
      const p = planAppend(input, this.state.project(name), Date.now());
      return { lines: p.lines, result: p };
    });
    if (plan.warnings.length > 0) this.options.onEvent?.({ event: 'project_collision', level: 'warn', project: name, contexts: distinctLocations(this.state.project(name).contexts()) });
    return { node: plan.node, ...(plan.target === undefined ? {} : { target: plan.target }), artifacts: plan.artifacts, warnings: plan.warnings };
  }

  /** Appends a summary of the unsummarised nodes of a branch (BRANCH_NOT_FOUND, INSUFFICIENT_NODES, ALREADY_SUMMARIZED). */
  async summarize(input: SummarizeInput & ProjectOption): Promise<DagNode> {
    const name = this.project(input.project);
    return this.write(() => {
      const node = planSummary(this.state.project(name), input, Date.now());
      return { lines: [node], result: node };
    });
  }

  /** Deletes a node with tombstones; refuses when nodes depend on it unless `cascade`. */
  async remove(id: string, options: ProjectOption & { cascade?: boolean } = {}): Promise<Omit<RemovalPlan, 'lines'>> {
    const name = this.project(options.project);
    return this.write(() => {
      const { lines, ...result } = planRemoval(this.state.project(name), id, options, Date.now());
      return { lines, result };
    });
  }

  /** Migrates every `kg.<project>.json` of `dir` (or only `project`'s); malformed files stop it before anything is written. */
  async migrate(dir: string, options: ProjectOption & { onProgress?: (done: number, total: number, what: string) => void } = {}): Promise<{ projects: MigratedProject[]; added: number; skipped: number; warnings: Problem[] }> {
    const only = options.project === undefined ? undefined : this.project(options.project);
    const files = (await readKgDir(dir, options.onProgress)).filter((f) => only === undefined || f.project === only);
    if (files.length === 0) throw new LoreError('NOT_FOUND', `no kg.<project>.json file of project ${only} in ${dir}`);
    const problems = files.flatMap((f) => f.problems);
    if (problems.length > 0) {
      throw new LoreError('PARSE', `${problems.length} problem(s) in the files to migrate; nothing was written`, { problems, hint: 'fix the files (or move them aside), then run the migration again' });
    }
    const { projects } = await this.write(() => {
      const plan = planMigration(this.state, files);
      return { lines: plan.lines, result: plan };
    });
    const sum = (key: 'added' | 'skipped'): number => projects.reduce((n, p) => n + p[key], 0);
    return { projects, added: sum('added'), skipped: sum('skipped'), warnings: files.flatMap((f) => f.warnings) };
  }
}
