// A real `lore serve` child process on a temp store, stopped (SIGTERM, then SIGKILL) when the test
// ends: its URL and token come from the line it prints and .knowledge/.cache/daemon.json.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { stopWithTest, testEnv } from './temp.js';

const BIN = new URL('../../bin/lore.js', import.meta.url).pathname;

export interface Daemon {
  /** `http://127.0.0.1:PORT` (or `http://[::1]:PORT` with --host ::1; no trailing slash). */
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  /** Everything the daemon printed on stdout and stderr so far. */
  output(): string;
  /** SIGTERM, and the exit code once it exited. */
  stop(): Promise<number | null>;
}

/** URLs of the daemons being stopped: a page still open on one may log refused requests then. */
export const stopping = new Set<string>();
/** The token of each running test daemon by URL: pages opened on it get the cookie the printed link sets. */
export const tokens = new Map<string, string>();

/** Starts `lore serve --port 0` (plus `args`) on the store at `root`, from `bin` (this checkout's by default); resolves once it listens. */
export async function startDaemon(t: TestContext, root: string, args: string[] = [], env: NodeJS.ProcessEnv = {}, bin = BIN): Promise<Daemon> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { cwd: root, env: testEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let url = '';
  const stop = async (): Promise<number | null> => {
    if (url !== '') stopping.add(url);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  stopWithTest(t, stop);
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`lore serve did not start in 20 s:\n${output}`)), 20_000);
    const look = (): void => {
      const found = /http:\/\/(?:127\.0\.0\.1|\[::1\]):\d+/.exec(output);
      if (found !== null) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => reject(new Error(`lore serve exited with ${code}:\n${output}`)));
  });
  const info = JSON.parse(readFileSync(join(root, '.knowledge', '.cache', 'daemon.json'), 'utf8')) as { token: string; port: number };
  tokens.set(url, info.token);
  return { url, port: info.port, token: info.token, child, output: () => output, stop };
}
