import { join } from 'node:path';
import { configuredSources, hasCommit, LOCK_PATH, parseLock, type ResolvedSource } from '../../extends/sources.js';
import { readTextIfExists } from '../../fs/read-text.js';
import { defineOp } from '../_define.js';

export interface ListedSource extends ResolvedSource {
  /** The pinned commit, or null when the lock does not pin this source as configured. */
  commit: string | null;
  /** Whether this clone has fetched the pinned commit (lore sync). */
  fetched: boolean;
}

export const op = defineOp<Record<string, never>, ListedSource[]>({
  name: 'extends.list',
  async run(_input, { ws }) {
    const store = await ws.store();
    const text = await readTextIfExists(join(store.root, LOCK_PATH));
    const lock = text === undefined ? undefined : (await parseLock(text, LOCK_PATH)).lock;
    const listed: ListedSource[] = [];
    for (const source of configuredSources(store.config)) {
      const pin = lock?.sources.find((p) => p.name === source.name && p.url === source.url && p.ref === source.ref && p.path === source.path);
      listed.push({ ...source, commit: pin?.commit ?? null, fetched: pin !== undefined && (await hasCommit(store.root, pin, ws.env)) });
    }
    return listed;
  },
});
