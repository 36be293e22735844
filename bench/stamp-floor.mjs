// The floor of any lore query or check-plan run as its own process: a node start plus the look at
// the entry files that every such process takes before it may trust a cache of them, and nothing
// else: no cache read, no index, no ranking. By default the look as the CLI takes it: find started
// at once (bin/lore.js starts it while the CLI loads), its stamp remembered from the run before.
// With `own`, the look lore takes itself (one listing per folder, one lstat per file). Run in the
// store to measure, like `lore query`.
import { prestartFolderLook } from '../dist/indexer/early-look.js';
import { recordFilesStamp } from '../dist/indexer/file-stamps.js';
import { findStoreRoot } from '../dist/store/locate.js';
import { APPLIED_KINDS } from '../dist/store/layout.js';
import { recordDir } from '../dist/store/record-files.js';

const root = findStoreRoot({ cwd: process.cwd() });
if (process.argv[2] !== 'own') prestartFolderLook(APPLIED_KINDS.map((kind) => recordDir(root, kind)));
const stamp = await recordFilesStamp(root, APPLIED_KINDS);
if (stamp === undefined) throw new Error('stamp-floor: the entry files could not be stamped');
