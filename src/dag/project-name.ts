// Project names of the thought DAG: derived from a projectContext (the directory an agent works
// in), so that no project has to be created or managed. Two different directories with the same
// cleaned name would silently share one project; `sameLocation` lets callers report that instead.
import { posix } from 'node:path';
import { LoreError } from '../errors.js';

const NAME = /^[A-Za-z0-9_-]{1,50}$/;
const MAX_NAME = 50;

// Replay normalises the context of every node, and a project's nodes share a few contexts.
const normalisedContexts = new Map<string, string>();

/** A projectContext in one spelling: `\` read as `/` (agents on Windows), normalised, no trailing `/`. */
export function normaliseContext(context: string): string {
  let normalised = normalisedContexts.get(context);
  if (normalised === undefined) {
    normalised = posix.normalize(context.trim().replace(/\\/g, '/'));
    if (normalised.length > 1) normalised = normalised.replace(/\/+$/, '');
    if (normalisedContexts.size < 10_000) normalisedContexts.set(context, normalised);
  }
  return normalised;
}

function unusable(context: string, why: string): LoreError {
  return new LoreError('USAGE', `projectContext ${JSON.stringify(context)} cannot name a project: ${why}`, {
    hint: 'pass the full path of the project directory, e.g. --project-context /home/me/my-app',
  });
}

/**
 * The project name of a projectContext: its last path segment, characters outside
 * [A-Za-z0-9_-] replaced by `_`, cut to 50. Throws USAGE when no usable name results.
 *
 * @example
 * projectNameFromContext('/home/me/my.app/'); // 'my_app'
 */
export function projectNameFromContext(context: unknown): string {
  if (typeof context !== 'string' || context.trim() === '') {
    throw new LoreError('USAGE', 'projectContext is empty: every thought needs the directory it is about', {
      hint: 'pass --project-context PATH (the full path of the project directory)',
    });
  }
  const last = posix.basename(normaliseContext(context));
  if (last === '' || last === '.' || last === '..') throw unusable(context, 'it has no last folder name');
  const name = last.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_NAME);
  // A name of underscores only ("日本" → "__") says nothing and would gather unrelated projects.
  if (!/[A-Za-z0-9]/.test(name)) throw unusable(context, `its last folder name "${last}" has no letter or digit`);
  return name;
}

/** Whether a name is a valid project name: [A-Za-z0-9_-], 1 to 50 characters. */
export function isProjectName(name: string): boolean {
  return NAME.test(name);
}

/** Throws USAGE unless `name` is a valid project name. */
export function assertProjectName(name: string): void {
  if (!isProjectName(name)) {
    throw new LoreError('USAGE', `project name ${JSON.stringify(name)} is not allowed: use 1 to ${MAX_NAME} letters, digits, '_' or '-'`);
  }
}

/**
 * Whether a projectContext says where the project lives. A bare name ("my-app", as migrated nodes
 * may carry) matches any directory of that name, so it never counts as a second location.
 */
export function isLocated(context: string): boolean {
  return normaliseContext(context).includes('/');
}

/** The distinct located contexts among `contexts`, sorted: two or more means a name collision. */
export function distinctLocations(contexts: Iterable<string>): string[] {
  const located = new Set<string>();
  for (const context of contexts) if (isLocated(context)) located.add(normaliseContext(context));
  return [...located].sort();
}
