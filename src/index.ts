// The public library API: re-exports only.
export * from './errors.js';
export type * from './types.js';
export { SCHEMA_NAMES, loadSchema, type SchemaName } from './schema/schemas.js';
export { validateAgainst, type SchemaIssue } from './schema/validate.js';
export { compileRegex, type SafeRegex } from './match/regex.js';
export { compileGlob, type SafeGlob } from './match/glob.js';
export { appendRecords, readLog, replayLog, rewriteLog, withLog, type LogLine, type ReplayResult } from './log/ndjson.js';
export { KINDS, RECORD_KINDS, type RecordKindName } from './store/layout.js';
export { DEFAULT_CONFIG, FORMAT_VERSION } from './store/config.js';
export { findStoreRoot } from './store/locate.js';
export { openStore, loadConfig, type Store } from './store/open.js';
export { readRecords, readRecord, type StoreRecord, type ReadResult } from './store/read.js';
export { writeRecord, deleteRecord, renderRecord, type WriteResult } from './store/write.js';
export { validateStore, type StoreReport } from './store/validate.js';
export { DEFAULT_GATES, DEFAULT_MODES, DEFAULT_ROLES } from './entities/defaults.js';
export { seedDefaults, type SeedItem } from './entities/seed.js';
export { initStore, type InitResult } from './entities/init.js';
