import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defineCommand } from '../command.js';

/** Opens a URL in the desktop's browser, quietly (a machine without one just has no window). */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no browser: the URL is printed
  }
}

export const command = defineCommand({
  name: 'serve',
  summary: 'run the daemon: the live index, the HTTP API and the web UI',
  usage: '[options]',
  description: [
    'Starts one daemon for the store: it keeps the store loaded and up to date as files change (a',
    'watcher, plus a reconcile every 30 s), serves every operation at POST /api/ops/<name>, live',
    'events at /api/events and the web UI at /. It listens on 127.0.0.1 only; writes need the token',
    'it keeps in .knowledge/.cache/daemon.json (mode 0600), and the UI opens from the link it prints',
    '(http://127.0.0.1:7373/?token=...). While it runs, lore query, check-plan,',
    'prompt, prime, list, show, graph context and turn latest ask it instead of reading the files',
    '(same output). It also answers the pre-commit hook that lore hook install wrote, through a socket in',
    '.git/lore/run/ that only you can reach, by running lore hook pre-commit for it (same output, no Node',
    'start); the hook runs lore itself whenever the daemon does not answer whole. Stop it with Ctrl-C.',
  ].join('\n'),
  options: {
    port: { type: 'integer', min: 0, max: 65535, value: 'N', description: 'the port (default 7373, or any free one when it is taken; 0: any free one)' },
    host: { type: 'string', value: 'ADDR', description: 'the address to listen on (default 127.0.0.1; anything else exposes the store to the network)' },
    open: { type: 'boolean', description: 'open the web UI in the browser' },
    'no-ui': { type: 'boolean', description: 'serve the API only' },
  },
  positionals: [0, 0],
  examples: ['lore serve', 'lore serve --port 8080 --open', 'curl -s http://127.0.0.1:7373/api/health'],
  async run(ctx) {
    const { startDaemon } = await import('../../daemon/serve.js');
    const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    const host = ctx.string('host') ?? '127.0.0.1';
    const loopback = host === '127.0.0.1' || host === '::1' || host === 'localhost';
    if (!loopback) ctx.note(`lore serve: listening on ${host}: the store is reachable from the network, over plain HTTP; the API and the page need the token`);
    const daemon = await startDaemon({
      cwd: ctx.cwd,
      store: ctx.storeDir,
      env: ctx.env,
      host: host === 'localhost' ? '127.0.0.1' : host,
      port: ctx.number('port'),
      ui: !ctx.flag('no-ui'),
      version,
      log: ctx.note,
    });
    const link = `${daemon.url}/?token=${daemon.token}`;
    if (ctx.json) {
      ctx.printJson({ url: daemon.url, open: link, store: daemon.store, pid: process.pid, version });
    } else {
      const lines = [`lore serve: ${daemon.store}/.knowledge at ${daemon.url}/${ctx.flag('no-ui') ? ' (API only)' : ''}  (Ctrl-C stops it)`];
      if (!ctx.flag('no-ui')) lines.push(`open ${link}`);
      ctx.print(lines.join('\n'));
    }
    if (ctx.flag('open') && !ctx.flag('no-ui')) openBrowser(link);
    const { answerHooks } = await import('../_hook-answer.js');
    const { git } = await import('../../git/exec.js');
    const top = await git(['rev-parse', '--show-toplevel'], { cwd: daemon.store, env: ctx.env }).then((out) => out.trim(), () => undefined);
    const hooks = top === undefined || top === '' ? undefined : await answerHooks(top, ctx.runCommand, ctx.note);
    if (hooks !== undefined) ctx.note(`lore serve: answers the pre-commit hook of ${top} (${hooks.path})`);
    const stop = (): void => {
      void daemon.close();
    };
    // Whatever happens, the daemon's files go with it: a crash says why and releases them.
    const crash = (error: unknown): void => {
      // First: no hook answered by a process in this state.
      void hooks?.close();
      ctx.note(`lore serve: stopping on an unexpected error: ${(error as Error)?.stack ?? String(error)}`);
      process.exitCode = 2;
      void daemon.close().finally(() => process.exit(2));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.on('uncaughtException', crash);
    process.on('unhandledRejection', crash);
    await daemon.stopped;
    await hooks?.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
    if (!ctx.json) ctx.note('lore serve: stopped');
    return 0;
  },
});
