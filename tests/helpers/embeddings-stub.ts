// A local OpenAI-compatible /v1/embeddings stub with deterministic vectors: one dimension per
// concept, so synonyms ("car", "automobile") point the same way while sharing no word.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

const CONCEPTS = [
  ['car', 'automobile', 'vehicle', 'parking'],
  ['payment', 'billing', 'invoice', 'checkout'],
  ['secret', 'credential', 'password', 'token'],
  ['retry', 'backoff', 'throttle'],
];

/** The stub's vector of a text: how many words of each concept it holds (plus a constant, so no vector is all zeros). */
export function stubVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return [...CONCEPTS.map((concept) => words.filter((w) => concept.includes(w)).length), 0.01];
}

export interface EmbeddingsStub {
  url: string;
  /** The `input` arrays of every request, in order. */
  requests: string[][];
  /** The authorization header of every request ('' when none). */
  authorizations: string[];
}

/** Starts the stub on 127.0.0.1 (a free port); it stops when the test ends. */
export async function embeddingsStub(t: TestContext, options: { status?: number; delayMs?: number } = {}): Promise<EmbeddingsStub> {
  const requests: string[][] = [];
  const authorizations: string[] = [];
  const delays = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url !== '/v1/embeddings' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const input = (JSON.parse(body) as { input: string[] }).input;
      requests.push(input);
      authorizations.push(req.headers.authorization ?? '');
      if (options.status !== undefined) {
        res.writeHead(options.status).end('{"error":"down"}');
        return;
      }
      const answer = (): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: input.map((text, index) => ({ object: 'embedding', index, embedding: stubVector(text) })) }));
      };
      if (options.delayMs === undefined) answer();
      else delays.add(setTimeout(answer, options.delayMs));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const delay of delays) clearTimeout(delay);
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests, authorizations };
}

/** A URL where nothing listens: a port that was free a moment ago. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
