// The layering of AGENTS.md, checked by dependency-cruiser (tests/architecture.test.ts runs it):
// dependencies point one way and adapters sit on top. That the commit hook's static import graph
// holds no yaml, ajv, MCP SDK or daemon is checked by the test on the graph this tool reads.
/** A rule forbidding `from` to import `to` (paths are regular expressions on src/ paths). */
const forbid = (name, comment, from, to, extra = {}) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to, ...extra } });

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'A module must not depend on itself through others.', severity: 'error', from: {}, to: { circular: true } },
    forbid('adapters-on-top', 'Nothing below the adapters imports the CLI, the MCP server, the daemon or the GitHub Action.', '^src/(?!cli/|mcp/|daemon/|action/)', '^src/(cli|mcp|daemon|action)/'),
    forbid('ops-no-adapter', 'Operations are the seam under every adapter: they never import one.', '^src/ops/', '^src/(cli|mcp|daemon|action)/'),
    forbid('errors-and-types-alone', 'errors, types and text-order import nothing of lore.', '^src/(errors|types|text-order)\\.ts$', '^src/'),
    forbid('base-modules', 'fs, schema, match and git import only one another and errors.', '^src/(fs|schema|match|git)/', '^src/(?!fs/|schema/|match/|git/|errors\\.ts|types\\.ts|text-order\\.ts)'),
    forbid('log-below-store', 'log imports only fs, schema and errors.', '^src/log/', '^src/(?!log/|fs/|schema/|errors\\.ts|types\\.ts|text-order\\.ts)'),
    forbid('store-below-domains', 'store builds on log and the base modules only.', '^src/store/', '^src/(?!store/|log/|fs/|schema/|match/|git/|errors\\.ts|types\\.ts|text-order\\.ts)'),
    forbid('no-workspace-below-ops', 'Only ops and the adapters use the Workspace.', '^src/(?!ops/|workspace/|cli/|mcp/|daemon/|index\\.ts)', '^src/workspace/'),
  ],
  options: {
    // Type-only imports count too: a cycle through types still ties two modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|tests|bench)/' },
  },
};
