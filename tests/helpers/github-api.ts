// A local stand-in for GitHub's REST API, as much of it as the action uses: an issue's comments
// (listed in pages of two, with Link headers), creating and editing one. It records every request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

export interface ApiRequest {
  method: string;
  url: string;
  authorization: string;
  body?: unknown;
}

export interface GitHubStub {
  url: string;
  requests: ApiRequest[];
  /** The comments of the pull request, as the server holds them. */
  comments: Array<{ id: number; body: string; html_url: string }>;
  /** Answer 403 to writes, as GitHub does to the read-only token of a pull request from a fork. */
  readOnly: boolean;
}

const PAGE = 2;

/** Starts the stub for `owner/name` pull request `number` on 127.0.0.1; it stops when the test ends. */
export async function githubStub(t: TestContext, repository: string, number: number, comments: string[] = []): Promise<GitHubStub> {
  const stub: GitHubStub = { url: '', requests: [], comments: [], readOnly: false };
  let nextId = 1000;
  const add = (body: string): { id: number; body: string; html_url: string } => {
    const comment = { id: ++nextId, body, html_url: `https://github.com/${repository}/pull/${number}#issuecomment-${nextId}` };
    stub.comments.push(comment);
    return comment;
  };
  comments.forEach(add);
  const list = `/repos/${repository}/issues/${number}/comments`;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url!, stub.url);
      const body = text === '' ? undefined : (JSON.parse(text) as { body: string });
      stub.requests.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization ?? '', ...(body === undefined ? {} : { body }) });
      const answer = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      };
      if (req.method !== 'GET' && stub.readOnly) return answer(403, { message: 'Resource not accessible by integration' });
      const edit = new RegExp(`^/repos/${repository}/issues/comments/(\\d+)$`).exec(url.pathname);
      if (req.method === 'GET' && url.pathname === list) {
        const page = Number(url.searchParams.get('page') ?? '1');
        const more = stub.comments.length > page * PAGE;
        return answer(200, stub.comments.slice((page - 1) * PAGE, page * PAGE), more ? { link: `<${stub.url}${list}?per_page=100&page=${page + 1}>; rel="next"` } : {});
      }
      if (req.method === 'POST' && url.pathname === list) return answer(201, add(body!.body));
      const comment = stub.comments.find((c) => c.id === Number(edit?.[1]));
      if (req.method === 'PATCH' && comment !== undefined) {
        comment.body = body!.body;
        return answer(200, comment);
      }
      answer(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return stub;
}
