// Artifact references: the files a thought produced or changed. An artifact's id derives from
// its project and path, so every thought naming one file points at one artifact line.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { LoreError } from '../errors.js';
import type { ArtifactRef } from '../types.js';

/** An artifact as an agent names it: at least a path. */
export interface ArtifactInput {
  id?: string;
  name?: string;
  path: string;
  uri?: string;
  hash?: string;
  contentType?: string;
}

/** The stable id of the artifact at `path` in `project`. */
export function artifactId(project: string, path: string): string {
  return `art-${createHash('sha1').update(`${project}\u0000${path}`).digest('hex').slice(0, 12)}`;
}

/** A reference to a file, from a path or an artifact input. */
export function artifactRef(project: string, input: string | ArtifactInput): ArtifactRef {
  const spec: ArtifactInput = typeof input === 'string' ? { path: input } : input;
  if (typeof spec.path !== 'string' || spec.path.trim() === '') {
    throw new LoreError('USAGE', `an artifact needs a path (found ${JSON.stringify(spec.path ?? null)})`);
  }
  return {
    id: spec.id ?? artifactId(project, spec.path),
    project,
    name: spec.name ?? posix.basename(spec.path.replace(/\\/g, '/')),
    path: spec.path,
    ...(spec.uri === undefined ? {} : { uri: spec.uri }),
    ...(spec.hash === undefined ? {} : { hash: spec.hash }),
    ...(spec.contentType === undefined ? {} : { contentType: spec.contentType }),
  };
}
