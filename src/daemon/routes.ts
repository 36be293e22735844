// Where the daemon serves each operation: every one at POST /api/ops/<name>, a read-only one also at
// GET with ?input=<JSON>, and a few common reads at plain GET URLs. http.ts serves this table and
// docs/reference/operations.md is generated from it, so the two cannot disagree.
import type { OpEntry } from '../ops/registry.js';

/** The HTTP methods an operation is served with at /api/ops/<name>: GET only for one that changes nothing. */
export function opMethods(op: Pick<OpEntry, 'readOnly'>): Array<'POST' | 'GET'> {
  return op.readOnly ? ['POST', 'GET'] : ['POST'];
}

/** A plain GET URL for a common read (curl, a browser's address bar), and the operation it runs. */
export interface GetRoute {
  /** The route, as hono reads it: `/api/records/:id`. */
  path: string;
  op: string;
  /** The query parameters, for people: `?kind=KIND`. */
  query: string;
  /** The operation's input, from the query parameters and the route's parameters. */
  input(query: (name: string) => string | undefined, param: (name: string) => string): unknown;
}

export const GET_ROUTES: readonly GetRoute[] = [
  { path: '/api/status', op: 'store.status', query: '', input: () => ({}) },
  { path: '/api/records', op: 'record.list', query: '?kind=KIND', input: (query) => (query('kind') === undefined ? {} : { kind: query('kind') }) },
  { path: '/api/records/:id', op: 'record.show', query: '', input: (_query, param) => ({ id: param('id') }) },
  {
    path: '/api/query',
    op: 'knowledge.query',
    query: '?q=TEXT&limit=N',
    // limit is the operation's maxResults: at most N entries of each type.
    input: (query) => {
      const limit = Number(query('limit'));
      return { taskDescription: query('q') ?? '', ...(query('limit') !== undefined && Number.isInteger(limit) && limit >= 0 ? { maxResults: limit } : {}) };
    },
  },
];
