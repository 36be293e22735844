// One pull-request comment kept up to date (the changesets bot / Danger habit): the comment that
// carries the marker is edited; without one, a comment is created. GitHub's REST API, with fetch.

export interface CommentTarget {
  /** GITHUB_API_URL: https://api.github.com, or a GitHub Enterprise server's. */
  api: string;
  /** owner/name */
  repository: string;
  number: number;
  token: string;
}

export interface CommentResult {
  action: 'created' | 'updated';
  url: string;
}

async function call(target: CommentTarget, method: string, url: string, body?: object): Promise<Response> {
  const response = await fetch(url, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${target.token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'lore-action',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) {
    const detail = ((await response.json().catch(() => ({}))) as { message?: string }).message;
    throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}${detail === undefined ? '' : `: ${detail}`}`);
  }
  return response;
}

/** The next page of a paginated answer (its `Link: <...>; rel="next"` header). */
function nextPage(response: Response): string | undefined {
  return /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
}

/** Edits the pull request's comment that holds `marker`, or creates one; the body must hold the marker. */
export async function upsertComment(target: CommentTarget, marker: string, body: string): Promise<CommentResult> {
  const base = `${target.api.replace(/\/+$/, '')}/repos/${target.repository}`;
  let url: string | undefined = `${base}/issues/${target.number}/comments?per_page=100`;
  while (url !== undefined) {
    const response = await call(target, 'GET', url);
    const found = ((await response.json()) as Array<{ id: number; body?: string }>).find((c) => c.body?.includes(marker));
    if (found !== undefined) {
      const edited = (await (await call(target, 'PATCH', `${base}/issues/comments/${found.id}`, { body })).json()) as { html_url: string };
      return { action: 'updated', url: edited.html_url };
    }
    url = nextPage(response);
  }
  const created = (await (await call(target, 'POST', `${base}/issues/${target.number}/comments`, { body })).json()) as { html_url: string };
  return { action: 'created', url: created.html_url };
}
