import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { INPUTS, OUTPUTS } from '../src/action/inputs.js';
import { lore, type CliResult } from './helpers/cli.js';
import { githubStub } from './helpers/github-api.js';
import { commitFiles, guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { sarifErrors } from './helpers/sarif.js';
import { gitSync, tempDir, testEnv } from './helpers/temp.js';

const ROOT = new URL('../', import.meta.url);
const ACTION_MAIN = fileURLToPath(new URL('dist/action/main.js', ROOT));
const EVENT = fileURLToPath(new URL('./fixtures/github-pull-request-event.json', import.meta.url));
const REPOSITORY = 'octo-org/octo-repo';
const MARKER = '<!-- lore-action: . -->';

interface PullRequestRepos {
  origin: string;
  mergeBase: string;
}

/** A bare origin with `main` (moved on since the branch point) and the pull request's branch `feature`. */
function pullRequestRepos(t: TestContext): PullRequestRepos {
  const work = guardRepo(t, { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }), [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'medium', content: ['TODO'] }) });
  const mergeBase = gitSync(work, ['rev-parse', 'HEAD']).trim();
  commitFiles(work, { 'README.md': '# demo\n\nMain moved on.\n' }, 'main moves on');
  gitSync(work, ['checkout', '-q', '-b', 'feature', mergeBase]);
  commitFiles(work, { 'config/.env': 'API_URL=https://staging.example.com\n', 'notes.txt': 'TODO staging\n' }, 'staging config');
  commitFiles(work, { [prohibitionPath('pro-todo')]: prohibition('pro-todo', { priority: 'low', content: ['TODO'] }) }, 'pro-todo matters less');
  const origin = join(tempDir(t, 'lore-origin-'), 'origin.git');
  gitSync(work, ['clone', '-q', '--bare', work, origin]);
  return { origin, mergeBase };
}

/** What actions/checkout leaves by default: the pull request's head, one commit deep. */
function shallowCheckout(t: TestContext, origin: string): string {
  const dir = join(tempDir(t, 'lore-ci-'), 'checkout');
  gitSync(origin, ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${origin}`, dir]);
  return dir;
}

interface ActionRun extends CliResult {
  output: string;
  summary: string;
}

/** Runs the built action script as the runner does, with GITHUB_* variables and INPUT_* from action.yml. */
function runAction(t: TestContext, cwd: string, env: NodeJS.ProcessEnv): Promise<ActionRun> {
  const files = tempDir(t, 'lore-runner-');
  const [output, summary] = [join(files, 'output'), join(files, 'summary')];
  const full = testEnv({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: EVENT, GITHUB_REPOSITORY: REPOSITORY, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, INPUT_GITHUB_TOKEN: 'ghs_test', ...env });
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [ACTION_MAIN], { cwd, env: full, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr, output: read(output), summary: read(summary) });
    });
  });
}

const short = (sha: string): string => sha.slice(0, 12);

/** The job summary of the repositories above, as the check and lore diff write it. */
function summaryOf(mergeBase: string, commit: string, todos: string[]): string {
  const warnings = todos.length;
  return [
    `### lore check: blocked: 1 critical finding and ${warnings} warning${warnings === 1 ? '' : 's'}`,
    '',
    `scanned origin/main...HEAD (${1 + warnings} commits from ${short(mergeBase)}): ${2 + warnings} files, ${2 + warnings} added lines, ${57 + todos.reduce((n, f) => n + (f === 'notes.txt' ? 13 : 10), 0)} bytes against 3 prohibitions (1 from the change itself)`,
    '',
    '| | entry | priority | where | what |',
    '|---|---|---|---|---|',
    `| ⛔ | \`pro-env\` Title of pro-env | critical | \`${short(commit)} config/.env\` | **/.env |`,
    ...todos.map((file) => `| ⚠️ | \`pro-todo\` Title of pro-todo | medium | \`${file === 'notes.txt' ? short(commit) : '%TIP%'} ${file}:1:1\` | \`TODO\` |`),
    '',
    '## lore diff origin/main...HEAD',
    '',
    '**1 change weakens enforcement — review first:**',
    '',
    '- ⚠️ prohibition changed `pro-todo` Title of pro-todo: priority lowered from medium to low',
    '',
    '### Prohibitions',
    '',
    '- ⚠️ changed `pro-todo` Title of pro-todo: priority lowered from medium to low',
    '',
  ].join('\n');
}

describe('the GitHub Action', () => {
  it('checks a shallow checkout from the merge base, and keeps one comment: created on the first run, edited on the next', async (t) => {
    const { origin, mergeBase } = pullRequestRepos(t);
    const commit = gitSync(origin, ['rev-parse', 'feature~1']).trim();
    const api = await githubStub(t, REPOSITORY, 7, ['Thanks for the PR!', 'Deploy preview ready', 'Coverage: 91%']);
    const checkout = shallowCheckout(t, origin);
    assert.equal(gitSync(checkout, ['rev-parse', '--is-shallow-repository']).trim(), 'true');
    const first = await runAction(t, checkout, { GITHUB_API_URL: api.url });
    const sarif = join(checkout, 'lore.sarif');
    const summary = summaryOf(mergeBase, commit, ['notes.txt']);
    assert.deepEqual([first.code, first.stderr], [1, '']);
    assert.equal(first.stdout, [
      'lore: fetching main from origin',
      'lore: the checkout is shallow and holds no merge base of origin/main and HEAD: git fetch --deepen=50',
      `lore: scanned origin/main...HEAD (2 commits from ${short(mergeBase)}): 3 files, 3 added lines, 70 bytes against 3 prohibitions (1 from the change itself)`,
      '::error file=config/.env,title=lore pro-env [critical]::Title of pro-env: config/.env matches **/.env',
      '::warning file=notes.txt,line=1,col=1,title=lore pro-todo [medium]::Title of pro-todo: added line matches TODO: TODO',
      'lore: blocked: 1 critical finding and 1 warning',
      `lore: wrote ${sarif}`,
      `lore: created the pull request comment https://github.com/${REPOSITORY}/pull/7#issuecomment-1004`,
      '',
    ].join('\n'));
    assert.equal(first.output, `blocked=true\nblocking=1\nwarnings=1\nsuppressed=0\nallowed=0\ninvalid=0\nsarif=${sarif}\n`);
    assert.equal(first.summary, summary);
    const list = `/repos/${REPOSITORY}/issues/7/comments`;
    assert.deepEqual(api.requests, [
      { method: 'GET', url: `${list}?per_page=100`, authorization: 'Bearer ghs_test' },
      { method: 'GET', url: `${list}?per_page=100&page=2`, authorization: 'Bearer ghs_test' },
      { method: 'POST', url: list, authorization: 'Bearer ghs_test', body: { body: `${MARKER}\n${summary}` } },
    ]);
    // The SARIF file is what `lore check --range ... --format sarif` prints, and valid SARIF 2.1.0.
    const written = JSON.parse(readFileSync(sarif, 'utf8')) as unknown;
    assert.deepEqual(sarifErrors(written), []);
    assert.deepEqual(written, JSON.parse((await lore(['check', '--range', 'origin/main...HEAD', '--format', 'sarif'], { cwd: checkout })).stdout));

    // The pull request gets another commit; CI checks out its new head, again one commit deep.
    const work = join(tempDir(t, 'lore-push-'), 'work');
    gitSync(origin, ['clone', '-q', '--branch', 'feature', origin, work]);
    const tip = commitFiles(work, { 'later.txt': 'TODO docs\n' }, 'docs to do');
    gitSync(work, ['push', '-q', 'origin', 'feature']);
    api.requests.length = 0;
    const second = await runAction(t, shallowCheckout(t, origin), { GITHUB_API_URL: api.url });
    const updated = summaryOf(mergeBase, commit, ['later.txt', 'notes.txt']).replace('%TIP%', short(tip));
    assert.equal(second.code, 1);
    assert.match(second.stdout, new RegExp(`\\nlore: updated the pull request comment https://github\\.com/${REPOSITORY}/pull/7#issuecomment-1004\\n$`));
    assert.deepEqual(api.requests, [
      { method: 'GET', url: `${list}?per_page=100`, authorization: 'Bearer ghs_test' },
      { method: 'GET', url: `${list}?per_page=100&page=2`, authorization: 'Bearer ghs_test' },
      { method: 'PATCH', url: `/repos/${REPOSITORY}/issues/comments/1004`, authorization: 'Bearer ghs_test', body: { body: `${MARKER}\n${updated}` } },
    ]);
    assert.deepEqual(api.comments.map((c) => c.body), ['Thanks for the PR!', 'Deploy preview ready', 'Coverage: 91%', `${MARKER}\n${updated}`]);
  });

  it('fails with the exact fix when the checkout lacks the base and cannot fetch it (exit 2)', async (t) => {
    const { origin } = pullRequestRepos(t);
    const checkout = shallowCheckout(t, origin);
    const gone = join(tempDir(t, 'lore-gone-'), 'origin.git');
    gitSync(checkout, ['remote', 'set-url', 'origin', gone]);
    const api = await githubStub(t, REPOSITORY, 7);
    const run = await runAction(t, checkout, { GITHUB_API_URL: api.url });
    assert.deepEqual([run.code, run.output, run.summary, api.requests], [2, '', '', []]);
    assert.equal(run.stdout, [
      'lore: fetching main from origin',
      'lore: error: cannot find the base main in this checkout, and fetching it from origin failed',
      `lore: git fetch --no-tags --quiet failed: fatal: '${gone}' does not appear to be a git repository; fatal: Could not read from remote repository.; ; Please make sure you have the correct access rights; and the repository exists.`,
      'lore: fix: fetch the whole history in the checkout step:',
      '  - uses: actions/checkout@v4',
      '    with:',
      '      fetch-depth: 0',
      '::error title=lore could not check the pull request::cannot find the base main in this checkout, and fetching it from origin failed%0Afix: fetch the whole history in the checkout step:%0A  - uses: actions/checkout@v4%0A    with:%0A      fetch-depth: 0',
      '',
    ].join('\n'));
  });

  it('keeps the verdict when the token cannot write the comment (a pull request from a fork)', async (t) => {
    const { origin } = pullRequestRepos(t);
    const api = await githubStub(t, REPOSITORY, 7);
    api.readOnly = true;
    const run = await runAction(t, shallowCheckout(t, origin), { GITHUB_API_URL: api.url });
    assert.equal(run.code, 1);
    assert.deepEqual(api.requests.map((r) => r.method), ['GET', 'POST']);
    assert.match(run.stdout, /\nlore: wrote [^\n]+\n::warning title=lore::could not write the pull request comment \(POST \/repos\/octo-org\/octo-repo\/issues\/7\/comments answered 403: Resource not accessible by integration\); a pull request from a fork gets a read-only token\n$/);
  });

  it('posts no comment for a push or when comment is off, and needs a base when the event has none', async (t) => {
    const { origin } = pullRequestRepos(t);
    const checkout = shallowCheckout(t, origin);
    const api = await githubStub(t, REPOSITORY, 7);
    const push = join(tempDir(t, 'lore-event-'), 'push.json');
    writeFileSync(push, JSON.stringify({ ref: 'refs/heads/feature', repository: { full_name: REPOSITORY } }));
    const noBase = await runAction(t, checkout, { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: push, GITHUB_API_URL: api.url });
    assert.deepEqual([noBase.code, noBase.stdout], [2, [
      'lore: error: nothing to compare with: the event is not a pull request and the input base is empty',
      'lore: fix: give the action a base, e.g. base: main',
      '::error title=lore could not check the pull request::nothing to compare with: the event is not a pull request and the input base is empty%0Afix: give the action a base, e.g. base: main',
      '',
    ].join('\n')]);
    const pushed = await runAction(t, checkout, { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: push, GITHUB_API_URL: api.url, INPUT_BASE: 'main' });
    const off = await runAction(t, checkout, { GITHUB_API_URL: api.url, INPUT_COMMENT: 'false', INPUT_SARIF: 'reports/../ci.sarif' });
    assert.deepEqual([pushed.code, off.code, api.requests], [1, 1, []]);
    assert.match(off.output, new RegExp(`\\nsarif=${join(checkout, 'ci.sarif').replace(/[.]/g, '\\.')}\\n$`));
    const bad = await runAction(t, checkout, { INPUT_COMMENT: 'yes' });
    assert.deepEqual([bad.code, bad.stdout.split('\n')[0]], [2, 'lore: error: the input comment must be true or false (found "yes")']);
  });

  it("fetches the org-wide sources the checkout's extends.lock pins, and blocks on their rules", async (t) => {
    const org = guardRepo(t, { [prohibitionPath('pro-no-eval')]: prohibition('pro-no-eval', { content: ['\\beval\\('] }) });
    const orgBare = join(tempDir(t, 'lore-org-'), 'knowledge.git');
    gitSync(org, ['clone', '-q', '--bare', org, orgBare]);
    const work = guardRepo(t, {});
    writeFileSync(join(work, '.knowledge/.gitignore'), '.cache/\n');
    assert.equal((await lore(['extends', 'add', orgBare, '--name', 'org'], { cwd: work })).code, 0);
    assert.equal((await lore(['sync'], { cwd: work })).code, 0);
    commitFiles(work, { '.knowledge/.gitignore': '.cache/\n' }, 'extend org');
    gitSync(work, ['checkout', '-q', '-b', 'feature']);
    commitFiles(work, { 'a.js': 'eval("1");\n' }, 'eval');
    const origin = join(tempDir(t, 'lore-origin-'), 'origin.git');
    gitSync(work, ['clone', '-q', '--bare', work, origin]);
    const checkout = shallowCheckout(t, origin);
    const result = await runAction(t, checkout, { INPUT_COMMENT: 'false', INPUT_BASE: 'main' });
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stdout, /\nlore: fetched the pinned commits of org \(\.knowledge\/extends\.lock\)\n/);
    assert.match(result.stdout, /::error file=a\.js,line=1,[^\n]*pro-no-eval/);
  });

  it('has an action.yml whose inputs and outputs are the ones the script reads and writes', () => {
    const action = parse(readFileSync(new URL('action.yml', ROOT), 'utf8')) as {
      inputs: Record<string, { default?: string }>;
      outputs: Record<string, { value: string }>;
      runs: { using: string; steps: Array<{ id?: string; run?: string; if?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string> }> };
    };
    assert.equal(action.runs.using, 'composite');
    const script = action.runs.steps.find((s) => s.id === 'lore')!;
    assert.equal(script.run, 'node "$GITHUB_ACTION_PATH/dist/action/main.js"');
    assert.deepEqual(script.env, Object.fromEntries(Object.entries(INPUTS).map(([name, variable]) => [variable, `\${{ inputs.${name} }}`])));
    // Every input is the script's, except upload-sarif, which the upload step reads.
    assert.deepEqual(Object.keys(action.inputs).sort(), [...Object.keys(INPUTS), 'upload-sarif'].sort());
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    assert.match(upload.if!, /inputs\.upload-sarif == 'true'/);
    assert.equal(upload.with!.sarif_file, '${{ steps.lore.outputs.sarif }}');
    assert.deepEqual([action.inputs.sarif!.default, action.inputs['github-token']!.default], ['lore.sarif', '${{ github.token }}']);
    assert.deepEqual(Object.entries(action.outputs).map(([name, o]) => [name, o.value]), OUTPUTS.map((name) => [name, `\${{ steps.lore.outputs.${name} }}`]));
  });
});
