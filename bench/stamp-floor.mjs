// The floor of any lore query or check-plan run as its own process: a node start plus the stamp of
// the entry files (one listing per folder, one lstat per file), which every such process takes
// before it may trust a cache of them, and nothing else: no cache read, no index, no ranking.
// Run in the store to measure, like `lore query`.
import { recordFilesStamp } from '../dist/indexer/file-stamps.js';
import { findStoreRoot } from '../dist/store/locate.js';
import { APPLIED_KINDS } from '../dist/store/layout.js';

const stamp = await recordFilesStamp(findStoreRoot({ cwd: process.cwd() }), APPLIED_KINDS);
if (stamp === undefined) throw new Error('stamp-floor: the entry files could not be stamped');
