// Every error lore raises is a LoreError with a code; the CLI maps codes to exit codes.

/** Codes for errors that mean "a policy said no" (exit 1). */
export type PolicyErrorCode = 'INVALID_STORE' | 'INVALID_RECORD' | 'BLOCKED';

/** Codes for usage and operational errors (exit 2). */
export type OperationalErrorCode =
  | 'USAGE'
  | 'NOT_FOUND'
  | 'STORE_NOT_FOUND'
  | 'NOT_A_GIT_REPO'
  | 'UNSUPPORTED_VERSION'
  | 'INVALID_ID'
  | 'IO'
  | 'TOO_LARGE'
  | 'PARSE'
  | 'LOCK_TIMEOUT'
  | 'GIT'
  | 'CONFLICT'
  | 'GUARD_FAILED'
  | 'EMPTY_RANGE'
  | 'SYMLINK'
  // Thought DAG summaries (the codes of the persistence spec).
  | 'BRANCH_NOT_FOUND'
  | 'INSUFFICIENT_NODES'
  | 'ALREADY_SUMMARIZED';

export type LoreErrorCode = PolicyErrorCode | OperationalErrorCode;

const POLICY_CODES: ReadonlySet<string> = new Set<PolicyErrorCode>(['INVALID_STORE', 'INVALID_RECORD', 'BLOCKED']);

/** A problem found in a file, with its exact location when one is known. */
export interface Problem {
  severity: 'error' | 'warning';
  /** Path relative to the store root (the directory holding `.knowledge/`), or absolute outside a store. */
  file: string;
  line?: number;
  column?: number;
  /** JSON pointer of the offending value inside the record. */
  pointer?: string;
  message: string;
  /** A few lines of the file with a caret under the problem, for people. */
  frame?: string;
}

export interface LoreErrorOptions {
  cause?: unknown;
  problems?: Problem[];
  hint?: string;
}

/** Base class of every error lore raises on purpose. */
export class LoreError extends Error {
  readonly code: LoreErrorCode;
  readonly problems: Problem[];
  readonly hint: string | undefined;

  constructor(code: LoreErrorCode, message: string, options: LoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LoreError';
    this.code = code;
    this.problems = options.problems ?? [];
    this.hint = options.hint;
  }

  /** 1 when a policy said no (invalid content, blocked), 2 for usage and operational failures. */
  get exitCode(): 1 | 2 {
    return POLICY_CODES.has(this.code) ? 1 : 2;
  }
}

/** Bad flags or arguments. */
export class UsageError extends LoreError {
  constructor(message: string, hint?: string) {
    super('USAGE', message, hint === undefined ? {} : { hint });
    this.name = 'UsageError';
  }
}

/** A record or file that does not satisfy its schema or the store's rules. */
export class ValidationError extends LoreError {
  constructor(message: string, problems: Problem[], options: Omit<LoreErrorOptions, 'problems'> = {}) {
    super('INVALID_RECORD', message, { ...options, problems });
    this.name = 'ValidationError';
  }
}

/** Hints for what the system refused, by errno code. */
const SYSTEM_HINTS: Readonly<Record<string, string>> = {
  EACCES: 'this user may not do that there: check who owns the file and its folder (one made with sudo?)',
  EPERM: 'this user may not do that there: check who owns the file and its folder (one made with sudo?)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full: free some space and run it again',
  EDQUOT: 'the disk quota is used up: free some space and run it again',
};

/**
 * A call the system refused (a Node error with a syscall: permission, a full disk, a read-only
 * file system) as an IO error naming the call and the path: not a bug in lore. Anything else: undefined.
 */
export function systemError(error: unknown): LoreError | undefined {
  if (!isErrno(error) || typeof error.syscall !== 'string' || !/^E[A-Z]+$/.test(error.code ?? '')) return undefined;
  const hint = Object.hasOwn(SYSTEM_HINTS, error.code!) ? SYSTEM_HINTS[error.code!] : undefined;
  return new LoreError('IO', error.message, { cause: error, ...(hint === undefined ? {} : { hint }) });
}

/** Whether a value is a Node.js system error with the given code (ENOENT, EEXIST, ...). */
export function isErrno(error: unknown, code?: string): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (code === undefined || (error as NodeJS.ErrnoException).code === code);
}
