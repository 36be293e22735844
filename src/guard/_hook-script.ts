// Reading a shell hook's flow on strings: where lore's line goes so that it provably runs (before
// every other command), whether it is there, and the file without it. No I/O here.

/** The comment that marks every line and file lore's hook install writes. */
export const MARKER = '# lore-hook-shim';

/** Interpreters whose scripts take lore's line: POSIX sh and the shells that run sh syntax. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);

/** The folder of lore serve's socket for the hook, from the top of the working tree (the hook's directory), and the socket. */
export const HOOK_RUN_DIR = '.git/lore/run';
export const HOOK_SOCKET = `${HOOK_RUN_DIR}/hook.sock`;
/** The first field of the hook's request and of lore serve's answer. */
export const HOOK_PROTOCOL = 'lore-hook/1';

/**
 * The client of `lore serve`'s answer to the hook (cli/_hook-answer.ts), in Perl, which git's own
 * packages bring and which starts in a few milliseconds. It runs lore itself (`exec @ARGV`) unless
 * a daemon answers whole: on any error, for the status probe, with LORE_NO_DAEMON=1, when
 * .git/lore/run is not a folder of this user's that only they can enter, when nothing listens, when
 * what listens is not a process of this user's (the socket's peer credentials: SO_PEERCRED on
 * Linux, LOCAL_PEERCRED on macOS and FreeBSD; anywhere else lore runs itself), after 60 s, and on
 * any answer that is not a complete `lore-hook/1 <0|1> <stdout bytes> <stderr bytes>` frame. The
 * peer check closes the gap between looking at the folder and connecting: someone who can rename
 * entries in .git (a group-writable shared repository) could put their own socket there meanwhile,
 * but not make it theirs as this user. It sends the lore it would run,
 * and its arguments, its directory, whether stdout is a terminal and its width, and its
 * environment. Perl runs without the PERL5OPT family, which could change what the client does.
 */
const client = (connect: string, peer: string): string => String.raw`$SIG{PIPE}="IGNORE";sub f{alarm 0;exec @ARGV;print STDERR "lore: cannot run $ARGV[0]: $!\n";exit 2}$SIG{__DIE__}=\&f;` +
  String.raw`f() if($ENV{LORE_HOOK_PROBE}//"")ne""||($ENV{LORE_NO_DAEMON}//"")eq"1";my @s=lstat "${HOOK_RUN_DIR}";f() unless @s&&-d _&&$s[4]==$>&&!($s[2]&63);` +
  String.raw`$SIG{ALRM}=\&f;alarm 60;my $h;${connect}${peer}select((select($h),$|=1)[0]);` +
  String.raw`my $w="\0"x8;my $t=-t STDOUT?1:0;my $c=$t&&ioctl(STDOUT,$^O eq "darwin"?0x40087468:0x5413,$w)?(unpack "S2",$w)[1]:0;` +
  String.raw`my $p=readlink("/proc/self/cwd")//do{require Cwd;Cwd::getcwd()};` +
  String.raw`print $h join("\0","${HOOK_PROTOCOL}",$ARGV[0],join(" ",@ARGV[1..$#ARGV]),$p,$t,$c,map{"$_=$ENV{$_}"}sort keys %ENV),"\0\0" or f();shutdown $h,1;` +
  String.raw`local $/;my $r=<$h>//"";my($x,$n,$m)=$r=~m{\A${HOOK_PROTOCOL} ([01]) ([0-9]{1,9}) ([0-9]{1,9})\n} or f();` +
  String.raw`my $o=index($r,"\n")+1;length($r)==$o+$n+$m or f();alarm 0;print STDOUT substr($r,$o,$n);print STDERR substr($r,$o+$n,$m);exit $x`;

/**
 * The connection. Perl's Socket module takes 14 ms to load, more than the rest of the client,
 * so on Linux the client writes its few numbers itself: AF_UNIX 1, SOCK_STREAM 1, a sockaddr_un
 * of a 16-bit family and the path, SOL_SOCKET 1 and SO_PEERCRED 17 (x86, Arm, RISC-V, s390).
 * Where Linux numbers them otherwise (MIPS, PowerPC, SPARC, Alpha), a wrong number makes the
 * socket, the connection or the peer's credentials fail, and lore runs itself; never a pass.
 * Elsewhere the client loads Socket.
 */
const CONNECT = String.raw`my($d,$y,$a)=$^O eq "linux"?(1,1,pack("Sa*x",1,"${HOOK_SOCKET}")):do{require Socket;(Socket::PF_UNIX(),Socket::SOCK_STREAM(),Socket::sockaddr_un("${HOOK_SOCKET}"))};socket($h,$d,$y,0)&&connect($h,$a)||f();`;

/** The listener's user: Linux's ucred (pid, uid, gid), the BSDs' xucred (version, uid, ...); it must be this user. */
const PEER = String.raw`my $u=$^O eq "linux"?(unpack "lL",getsockopt($h,1,17)//"")[1]:$^O=~/^(darwin|freebsd)$/?(unpack "IL",getsockopt($h,0,1)//"")[1]:undef;f() unless defined $u&&$u==$>;`;

/** How earlier clients connected, with the Socket module loaded up front (`perl -MSocket`). */
const CONNECT_WITH_MODULE = String.raw`socket($h,PF_UNIX,SOCK_STREAM,0)&&connect($h,sockaddr_un("${HOOK_SOCKET}"))||f();`;
const PEER_WITH_MODULE = String.raw`my $u=$^O eq "linux"?(unpack "lL",getsockopt($h,SOL_SOCKET,SO_PEERCRED)//"")[1]:$^O=~/^(darwin|freebsd)$/?(unpack "IL",getsockopt($h,0,1)//"")[1]:undef;f() unless defined $u&&$u==$>;`;

const loreHook = (code: string, flags = ''): string => `lore_hook() { if [ -S ${HOOK_SOCKET} ] && command -v perl >/dev/null 2>&1; then (unset PERL5OPT PERL5LIB PERLLIB PERL5DB PERL_UNICODE PERLIO; exec perl ${flags}-e '${code}' -- "$@"); else "$@"; fi; };`;

/**
 * `lore_hook CMD...`: asks a running `lore serve` to answer the hook when its socket is there and
 * Perl is, else runs CMD (what the client does too on anything but a whole answer).
 */
export const LORE_HOOK = loreHook(client(CONNECT, PEER));

/** What an earlier lore wrote: its client never asked who listens on the socket (063acb4 to 6ebf3ae, 2026-11-29). */
export const UNCHECKED_LORE_HOOK = loreHook(client(CONNECT_WITH_MODULE, ''), '-MSocket ');

/** What an earlier lore wrote: its client loaded Perl's Socket module on every commit (until 2026-11-29). */
export const SOCKET_MODULE_LORE_HOOK = loreHook(client(CONNECT_WITH_MODULE, PEER_WITH_MODULE), '-MSocket ');

/** Why install rewrites each earlier kind of hook, as `lore hook status` says it. */
export const NEVER_ASKS = 'which never asks lore serve';
export const UNCHECKED = 'whose client does not check who answers on the socket';
export const SOCKET_MODULE = "whose client loads Perl's Socket module on every commit";

// The parts of lore's line: the function above, LORE_SKIP=1 first (visible), then lore, else fail
// closed with exit 2. `|| exit $?` stops the hook on a block (or on the status probe) whether or not it runs with -e.
const SKIP = 'if [ "${LORE_SKIP:-}" = "1" ]; then echo "lore: LORE_SKIP=1: the pre-commit check was skipped" >&2;';
const LOCAL = 'elif [ -x ./node_modules/.bin/lore ]; then lore_hook ./node_modules/.bin/lore hook pre-commit || exit $?;';
const ON_PATH = 'elif command -v lore >/dev/null 2>&1; then lore_hook lore hook pre-commit || exit $?;';
const MISSING = 'else echo "lore: the pre-commit hook cannot find lore (install it in this repository: npm install); LORE_SKIP=1 skips it" >&2; exit 2; fi';

/** The line lore adds to a husky hook: husky 9.1 and later put node_modules/.bin on PATH, so it calls lore directly. */
export const HUSKY_LINE = [LORE_HOOK, SKIP, ON_PATH, MISSING, MARKER].join(' ');

/** The line lore adds to a tracked hook file git runs itself: git puts nothing on PATH, so the local install comes first. */
export const HOOK_LINE = [LORE_HOOK, SKIP, LOCAL, ON_PATH, MISSING, MARKER].join(' ');

/** A hook text an earlier lore wrote, and why install replaces it. */
export interface Previous {
  text: string;
  why: string;
}

/** What lore wrote before its line asked `lore serve` (until 2026-11): they run lore, without the daemon; install replaces them. */
const PREVIOUS_LOCAL = 'elif [ -x ./node_modules/.bin/lore ]; then ./node_modules/.bin/lore hook pre-commit || exit $?;';
const PREVIOUS_ON_PATH = 'elif command -v lore >/dev/null 2>&1; then lore hook pre-commit || exit $?;';
export const PREVIOUS_HUSKY_LINES: readonly Previous[] = [
  { text: [SKIP, PREVIOUS_ON_PATH, MISSING, MARKER].join(' '), why: NEVER_ASKS },
  { text: [UNCHECKED_LORE_HOOK, SKIP, ON_PATH, MISSING, MARKER].join(' '), why: UNCHECKED },
  { text: [SOCKET_MODULE_LORE_HOOK, SKIP, ON_PATH, MISSING, MARKER].join(' '), why: SOCKET_MODULE },
];
export const PREVIOUS_HOOK_LINES: readonly Previous[] = [
  { text: [SKIP, PREVIOUS_LOCAL, PREVIOUS_ON_PATH, MISSING, MARKER].join(' '), why: NEVER_ASKS },
  { text: [UNCHECKED_LORE_HOOK, SKIP, LOCAL, ON_PATH, MISSING, MARKER].join(' '), why: UNCHECKED },
  { text: [SOCKET_MODULE_LORE_HOOK, SKIP, LOCAL, ON_PATH, MISSING, MARKER].join(' '), why: SOCKET_MODULE },
];

// Lines keep their "\r" when the file has CRLF endings; a comment or the marker absorbs it.
const splitLines = (text: string): string[] => text.split('\n');
const bare = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);
const isShebang = (line: string, index: number): boolean => index === 0 && line.startsWith('#!');
// A blank line or a comment: the shell runs nothing there (a trailing backslash does not continue a comment).
const isInert = (line: string): boolean => /^[ \t]*(#.*)?$/.test(bare(line));

/** The program a script's `#!` line names (`sh`, `bash`, `node`, ...), or undefined without one. */
export function interpreter(text: string): string | undefined {
  const first = bare(splitLines(text)[0] ?? '');
  if (!first.startsWith('#!')) return undefined;
  const words = first.slice(2).trim().split(/\s+/).filter((word) => word !== '');
  let program = words.shift();
  if (program !== undefined && program.split('/').pop() === 'env') {
    // env's own options (-S, -i, NAME=value) come before the program it runs.
    while (words.length > 0 && (words[0]!.startsWith('-') || words[0]!.includes('='))) words.shift();
    program = words.shift();
  }
  return program?.split('/').pop();
}

/** The `#!` line of a script that is not a shell script, or undefined when sh can run it. */
export function foreignShebang(text: string): string | undefined {
  const program = interpreter(text);
  return program === undefined || SHELLS.has(program) ? undefined : bare(splitLines(text)[0]!);
}

/** Index of the first line the shell runs: not the `#!` line, not a comment, not blank; -1 when none. */
function firstCommand(lines: readonly string[]): number {
  return lines.findIndex((line, index) => !isShebang(line, index) && !isInert(line));
}

/** 1-based numbers of the lines carrying lore's marker. */
export function markedLines(text: string): number[] {
  return splitLines(text).flatMap((line, index) => (line.includes(MARKER) ? [index + 1] : []));
}

export type Proof = { ok: true } | { ok: false; why: string };

/** Whether the script provably runs `line` before anything else: a shell script whose first command is `line`, the only line with lore's marker. */
export function provesFirst(text: string, line: string): Proof {
  const foreign = foreignShebang(text);
  if (foreign !== undefined) return { ok: false, why: `it is not a shell script (${foreign})` };
  const marked = markedLines(text);
  if (marked.length === 0) return { ok: false, why: "lore's line is not in it" };
  if (marked.length > 1) return { ok: false, why: `lore's marker is on ${marked.length} lines (${marked.join(', ')})` };
  const lines = splitLines(text);
  const at = marked[0]!;
  if (isInert(lines[at - 1]!)) return { ok: false, why: `lore's line ${at} is a comment` };
  const first = firstCommand(lines) + 1;
  if (first !== at) return { ok: false, why: `line ${first} runs before lore's line ${at}` };
  if (bare(lines[at - 1]!) !== line) return { ok: false, why: `line ${at} is not the line lore writes` };
  return { ok: true };
}

/**
 * The script with lore's line as its first command: after the `#!` line and the comments that
 * lead the file, before any other line that runs. Earlier lore lines, wherever they are, are
 * removed (`replaced` gives their numbers in the old text).
 * @example withLoreLine('#!/bin/sh\nnpm test\nexit 0\n', HOOK_LINE).text // '#!/bin/sh\n<HOOK_LINE>\nnpm test\nexit 0\n'
 */
export function withLoreLine(text: string | undefined, line: string): { text: string; replaced: number[] } {
  if (text === undefined || text === '') return { text: `${line}\n`, replaced: [] };
  const replaced = markedLines(text);
  const lines = splitLines(text).filter((candidate) => !candidate.includes(MARKER));
  const eol = text.includes('\r\n') ? '\r' : '';
  const first = firstCommand(lines);
  // With no command at all, lore's line goes at the end (before the final newline's empty element).
  let at = first !== -1 ? first : lines.length - (lines[lines.length - 1] === '' ? 1 : 0);
  // After the last leading comment, so a blank line between the header and the body stays there.
  while (at > 0 && bare(lines[at - 1]!).trim() === '') at -= 1;
  let joined = [...lines.slice(0, at), `${line}${eol}`, ...lines.slice(at)].join('\n');
  // A file without a final newline keeps it that way, unless lore's line would end it.
  if (at === lines.length) joined += '\n';
  return { text: joined, replaced };
}

/** The script without lore's lines; undefined when it has none. */
export function withoutLoreLines(text: string): string | undefined {
  if (!text.includes(MARKER)) return undefined;
  return splitLines(text).filter((line) => !line.includes(MARKER)).join('\n');
}
