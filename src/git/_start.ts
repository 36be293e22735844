// How a git process starts: spawned, or, in lore serve, a waiting stub told to become it.
//
// Spawning forks this process, and the fork holds its main thread: 6-8 ms in a fresh Node on the
// slow machines lore is measured on, 12-35 ms in a daemon of a few hundred MB with the other core
// busy, four times per hook it answers. So lore serve keeps stubs waiting (keepGitStubs): small
// Perl processes started between hooks, each blocked reading its stdin. Sent a command (working
// folder, arguments, environment), a stub execs it, without a shell: its pipes, or the spool file
// it was given as stdout, are then git's, and its exit is git's. Starting git that way costs this
// process one write. Where Perl is missing, or no stub is waiting, git is spawned as before; a stub
// that cannot do what it is told exits with an error, as git failing to start would.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, unlinkSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The arguments of a git run: `args` with replacement refs turned off. */
export const gitArgv = (args: readonly string[]): string[] => ['--no-replace-objects', ...args];

/**
 * The environment of a git run: `env` with a graft file that cannot exist (a file under
 * /dev/null: git reads no grafts, and says nothing about a file it cannot open for that reason).
 */
export const gitEnv = (env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv => ({ ...(env ?? process.env), GIT_GRAFT_FILE: '/dev/null/lore-reads-no-grafts' });

/**
 * A file git writes its output to, already unlinked: only this process and git hold it.
 * `git cat-file --batch` writes every blob in two writes (its header, then the blob); through a
 * pipe each write wakes this process, which costs more than git's own work (on a 300-blob change,
 * 94 ms against 57 into a file). Undefined where no temporary file can be made: then a pipe.
 */
export function spoolFile(): number | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    const path = join(tmpdir(), `lore-git-${process.pid}-${Math.random().toString(36).slice(2)}`);
    try {
      // 'wx+' creates the file or fails: never through a link someone left under that name.
      const fd = openSync(path, 'wx+', 0o600);
      try {
        unlinkSync(path);
      } catch {
        closeSync(fd);
        return undefined;
      }
      return fd;
    } catch {
      // a name taken meanwhile (try another), or no temporary folder to write to
    }
  }
  return undefined;
}

/** A git process started: its stdin, stdout (unless it writes to `spool`) and stderr are pipes. */
export interface StartedGit {
  child: ChildProcess;
  /** The spool file git writes its stdout to (the caller reads and closes it); undefined: a pipe. */
  spool: number | undefined;
  /** Whether a stub was told to become it (see couldNotStart). */
  stub: boolean;
}

/** What a stub prints before it exits 126 or 127, when it cannot enter the folder or run git. */
const CANNOT = 'lore-stub: ';

/**
 * Why git never ran, when a stub could not enter the folder or run git (where spawn would have
 * failed with an error instead of an exit); undefined when git ran, whatever its exit.
 */
export function couldNotStart(started: StartedGit, code: number | null, stderr: Buffer): string | undefined {
  if (!started.stub || (code !== 126 && code !== 127) || !stderr.subarray(0, CANNOT.length).equals(Buffer.from(CANNOT))) return undefined;
  return stderr.toString('utf8', CANNOT.length).trim();
}

/**
 * Starts `git <args>` in `cwd` with `env` (gitArgv and gitEnv applied), stdout into a spool file
 * when `spooled` and one can be made. Through a waiting stub when there is one.
 */
export function startGit(args: readonly string[], where: { cwd: string; env?: NodeJS.ProcessEnv }, spooled: boolean): StartedGit {
  const argv = gitArgv(args);
  const env = gitEnv(where.env);
  const stub = stubs?.take(spooled, where.cwd, argv, env);
  if (stub !== undefined) return stub;
  const spool = spooled ? spoolFile() : undefined;
  // No spool file can be made: a pipe, from a stub when one waits.
  const piped = spooled && spool === undefined ? stubs?.take(false, where.cwd, argv, env) : undefined;
  if (piped !== undefined) return piped;
  try {
    return { child: spawn('git', argv, { cwd: where.cwd, env, stdio: ['pipe', spool ?? 'pipe', 'pipe'] }), spool, stub: false };
  } catch (error) {
    if (spool !== undefined) closeSync(spool);
    throw error;
  }
}

/**
 * The stub: reads an 8-digit hex length and that many bytes from stdin, byte by byte exactly (the
 * rest of stdin is git's), NUL-separated: the folder, the number of arguments, the arguments, then
 * NAME=value for each variable of the environment. Exits 120-122 when told nothing it reads,
 * 126-127 when it cannot enter the folder or run the command.
 */
const STUB = String.raw`binmode STDIN;
sub take { my ($n, $b) = (shift, ""); while (length($b) < $n) { my $r = sysread(STDIN, $b, $n - length($b), length($b)); exit 120 unless $r; } $b }
my $h = take(8); exit 121 unless $h =~ /\A[0-9a-f]{8}\z/;
my @f = split /\0/, take(hex $h), -1;
my ($cwd, $argc) = splice @f, 0, 2;
exit 122 unless defined $argc && $argc =~ /\A[1-9][0-9]{0,5}\z/ && @f >= $argc;
my @argv = splice @f, 0, $argc;
%ENV = map { /\A([^=]*)=(.*)\z/s ? ($1, $2) : () } @f;
unless (chdir $cwd) { print STDERR "${CANNOT}cannot enter $cwd: $!\n"; exit 126; }
{ exec { $argv[0] } @argv; }
print STDERR "${CANNOT}cannot run $argv[0]: $!\n"; exit 127;`;

/** Stubs kept waiting: enough for an answered hook's git processes (diff, rev-parse, config, listings; cat-file into a spool). */
const PLAIN = 4;
const SPOOLED = 1;
/** How long after the last stub was taken the pool starts filling again: after the answer, off its path. */
const REFILL_MS = 250;
/** Stubs that die this soon after they started (a broken perl) before the pool stops making them. */
const MOST_DEATHS = 3;
const EARLY_DEATH_MS = 2000;

interface Waiting {
  child: ChildProcess;
  spool: number | undefined;
  /** Takes it out of the pool when it dies waiting; not heard once the stub is taken. */
  died: () => void;
}

class Stubs {
  private readonly plain: Waiting[] = [];
  private readonly spooled: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private deaths = 0;
  private stopped = false;
  /** Whether a spool file can be made for a stub. */
  private spools = true;
  /** How many stubs were told to run git. */
  taken = 0;

  constructor() {
    this.fillLater(0);
  }

  /** A waiting stub told to run `argv` (argv[0] is the program); undefined when none waits or it cannot be told. */
  take(spooled: boolean, cwd: string, argv: readonly string[], env: NodeJS.ProcessEnv): StartedGit | undefined {
    // A relative folder is the same folder spawn would enter: the stub starts in /.
    const fields = [resolve(cwd), String(argv.length + 1), 'git', ...argv];
    for (const [name, value] of Object.entries(env)) if (value !== undefined) fields.push(`${name}=${value}`);
    // A NUL cannot be sent (and spawn refuses one too): spawned, it fails as it always did.
    if (fields.some((field) => field.includes('\0'))) return undefined;
    const list = spooled ? this.spooled : this.plain;
    const stub = list.shift();
    if (stub === undefined || stub.child.exitCode !== null || stub.child.signalCode !== null) return undefined;
    this.taken++;
    this.deaths = 0; // Perl works
    this.fillLater(REFILL_MS);
    const payload = Buffer.from(fields.join('\0'));
    const { child } = stub;
    child.off('exit', stub.died);
    child.ref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as Socket | null)?.ref();
    child.stdin!.write(Buffer.concat([Buffer.from(payload.length.toString(16).padStart(8, '0')), payload]));
    return { child, spool: stub.spool, stub: true };
  }

  waiting(): number {
    return this.plain.length + this.spooled.length;
  }

  /** Kills the stubs still waiting; none is made after. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const stub of [...this.plain.splice(0), ...this.spooled.splice(0)]) {
      stub.child.off('exit', stub.died);
      stub.child.kill();
      if (stub.spool !== undefined) closeSync(stub.spool);
    }
  }

  private fillLater(ms: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => this.fillOne(), ms);
    this.timer.unref();
  }

  /** Starts one missing stub, then the next in a later turn: a hook that comes meanwhile waits for one fork at most. */
  private fillOne(): void {
    if (this.stopped || this.deaths >= MOST_DEATHS) return;
    const spooled = this.spooled.length < SPOOLED && this.spools;
    if (!spooled && this.plain.length >= PLAIN) return;
    const spool = spooled ? spoolFile() : undefined;
    if (spooled && spool === undefined) {
      this.spools = false; // no temporary folder to write to: cat-file goes through a pipe
      this.fillLater(0);
      return;
    }
    let child: ChildProcess;
    try {
      // Only PATH: nothing in this process's environment (PERL5OPT, PERL5LIB, a locale) changes what the stub does.
      child = spawn('perl', ['-e', STUB], { cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdio: ['pipe', spool ?? 'pipe', 'pipe'] });
    } catch {
      if (spool !== undefined) closeSync(spool);
      this.deaths = MOST_DEATHS;
      return;
    }
    const born = performance.now();
    const stub: Waiting = {
      child,
      spool,
      // A stub that dies while it waits (a signal, a broken perl): out of the pool, and replaced,
      // unless a few died as soon as they started.
      died: () => {
        for (const list of [this.plain, this.spooled]) {
          const at = list.indexOf(stub);
          if (at !== -1) list.splice(at, 1);
        }
        if (spool !== undefined) closeSync(spool);
        if (this.stopped) return;
        if (performance.now() - born < EARLY_DEATH_MS) this.deaths++;
        this.fillLater(REFILL_MS);
      },
    };
    let started = false;
    child.stdin!.on('error', () => undefined);
    // Waiting keeps nothing open: a process that has nothing else to do exits.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as Socket | null)?.unref();
    // Waiting from the moment it runs; no perl (ENOENT) never runs, and stops the pool.
    child.once('spawn', () => {
      started = true;
      if (this.stopped) child.kill();
      else (spooled ? this.spooled : this.plain).push(stub);
      this.fillLater(0);
    });
    child.on('error', () => {
      if (started) return;
      this.deaths = MOST_DEATHS;
      if (spool !== undefined) closeSync(spool); // no 'exit' follows a process that never ran
    });
    child.on('exit', stub.died);
  }
}

let stubs: Stubs | undefined;

/** How many stubs wait now, and how many were told to run git so far (for tests and diagnostics). */
export function gitStubCounts(): { waiting: number; taken: number } {
  return { waiting: stubs?.waiting() ?? 0, taken: stubs?.taken ?? 0 };
}

/** Keeps git stubs waiting for this process's git runs until the function it returns is called (lore serve). */
export function keepGitStubs(): () => void {
  stubs?.stop();
  const kept = new Stubs();
  stubs = kept;
  return () => {
    kept.stop();
    if (stubs === kept) stubs = undefined;
  };
}
