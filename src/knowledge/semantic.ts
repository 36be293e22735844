// Semantic matching: the built-in word vectors (word-vectors.ts, offline, the default), or an
// OpenAI-compatible /v1/embeddings endpoint (a local Ollama, for instance) when matching.embeddings
// names one. The provider's entry vectors are computed once per content hash and kept in
// .knowledge/.cache/; when it cannot be reached, the built-in vectors answer and say why.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { CACHE_DIR, knowledgeDir } from '../store/layout.js';
import type { EmbeddingsConfig, KnowledgeEntry } from '../types.js';
import { computeEntryVectors, storeEntryVectors } from './entry-vectors.js';
import { allEntries, type KnowledgeIndex } from './knowledge-index.js';
import { embedText, wordVectors, type WordVectors } from './word-vectors.js';

/** Whether semantic matching was used for a query, and why not when it was not. */
export interface SemanticStatus {
  used: boolean;
  message: string;
  model?: string;
  /** Entry vectors fetched from the provider for this query (the rest came from the cache). */
  computed?: number;
}

const BATCH = 64;
const DEFAULT_TIMEOUT_MS = 2000;

/** The text of an entry that is embedded; its hash keys the cache. */
export function embeddingText(entry: KnowledgeEntry): string {
  return [entry.title, entry.description, entry.details ?? '', entry.keywords.join(', ')].join('\n');
}

function endpoint(config: EmbeddingsConfig): string {
  const base = config.url.replace(/\/+$/, '');
  return base.endsWith('/embeddings') ? base : `${base}/embeddings`;
}

interface HttpAnswer {
  status: number;
  statusText: string;
  body: string;
}

/**
 * POSTs JSON without keep-alive (fetch keeps the connection open, and with it the CLI process,
 * for seconds after the answer), with one deadline for the whole exchange.
 */
async function postJson(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<HttpAnswer> {
  const { request } = url.startsWith('https:') ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', body: text });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(error.code ?? error.message));
    });
    req.end(body);
  });
}

/** Asks the provider for the vectors of `texts`; throws an Error saying what went wrong. */
export async function fetchEmbeddings(config: EmbeddingsConfig, texts: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<number[][]> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = config.api_key_env === undefined ? undefined : env[config.api_key_env];
  if (key !== undefined && key !== '') headers.authorization = `Bearer ${key}`;
  const answer = await postJson(endpoint(config), JSON.stringify({ model: config.model, input: texts }), headers, config.timeout_ms ?? DEFAULT_TIMEOUT_MS);
  if (answer.status < 200 || answer.status > 299) throw new Error(`HTTP ${answer.status} ${answer.statusText}`.trim());
  let data: Array<{ index?: number; embedding?: unknown }> | undefined;
  try {
    data = (JSON.parse(answer.body) as { data?: typeof data }).data;
  } catch {
    throw new Error('the answer is not JSON');
  }
  if (!Array.isArray(data) || data.length !== texts.length) throw new Error(`expected ${texts.length} embeddings in "data", found ${Array.isArray(data) ? data.length : 'none'}`);
  const vectors = new Array<number[]>(texts.length);
  data.forEach((item, position) => {
    const vector = item.embedding;
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every((n) => typeof n === 'number')) throw new Error('an embedding is not a list of numbers');
    vectors[item.index ?? position] = vector as number[];
  });
  return vectors;
}

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

interface VectorCache {
  model: string;
  vectors: Record<string, string>;
}

function cachePath(root: string, config: EmbeddingsConfig): string {
  const key = createHash('sha1').update(`${endpoint(config)}\n${config.model}`).digest('hex').slice(0, 12);
  return join(knowledgeDir(root), CACHE_DIR, `embeddings-${key}.json`);
}

const encode = (vector: readonly number[]): string => Buffer.from(new Float32Array(vector).buffer).toString('base64');
const decode = (text: string): Float32Array => {
  const bytes = Buffer.from(text, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

/** The vectors of the entries, from the cache where it has them and from the provider otherwise. */
async function entryVectors(root: string, config: EmbeddingsConfig, entries: readonly KnowledgeEntry[], env: NodeJS.ProcessEnv): Promise<{ vectors: Float32Array[]; computed: number }> {
  const path = cachePath(root, config);
  const cache = ((await readTextIfExists(path).then((text) => JSON.parse(text ?? 'null') as unknown).catch(() => undefined)) as VectorCache | null | undefined) ?? { model: config.model, vectors: {} };
  const hashes = entries.map((entry) => createHash('sha1').update(embeddingText(entry)).digest('hex'));
  const missing = [...new Set(hashes.map((hash, i) => (cache.vectors[hash] === undefined ? i : -1)).filter((i) => i >= 0).map((i) => hashes[i]!))];
  const textOf = new Map(hashes.map((hash, i) => [hash, embeddingText(entries[i]!)]));
  let computed = 0;
  try {
    for (let at = 0; at < missing.length; at += BATCH) {
      const batch = missing.slice(at, at + BATCH);
      const vectors = await fetchEmbeddings(config, batch.map((hash) => textOf.get(hash)!), env);
      batch.forEach((hash, i) => (cache.vectors[hash] = encode(vectors[i]!)));
      computed += batch.length;
    }
  } finally {
    // What was fetched is kept even when a later batch fails; the cache is only an optimisation.
    if (computed > 0) await writeFileAtomic(path, JSON.stringify(cache), { durable: false }).catch(() => undefined);
  }
  return { vectors: hashes.map((hash) => decode(cache.vectors[hash]!)), computed };
}

/** Cosine similarity below which the built-in word vectors' score counts as zero (their scale, not the provider's). */
export const WORD_VECTOR_FLOOR = 0.35;
/** The model name the built-in word vectors report. */
export const WORD_VECTORS_MODEL = 'glove-6b-100d';

/** Similarities of some entries to a query: cosine, or 0 at or below `floor`. */
export interface SemanticScores {
  scores?: Float64Array;
  /** The floor below which similarity counts as nothing (semantic_threshold, or WORD_VECTOR_FLOOR). */
  floor: number;
  status: SemanticStatus;
}

/** The built-in word vectors' similarities of the index's entries `docs` to the query (entry vectors from the snapshot or computed once per index). */
async function wordVectorScores(options: SemanticOptions, fallback: string): Promise<SemanticScores> {
  const { index, docs } = options;
  let vectors: WordVectors;
  try {
    vectors = wordVectors();
  } catch (error) {
    return { floor: 0, status: { used: false, message: `${fallback}${(error as Error).message}: lexical ranking only` } };
  }
  let computed = 0;
  if (index.vectors === undefined) {
    if (index.identity === undefined) {
      index.vectors = computeEntryVectors(allEntries(index.entries), vectors);
      computed = index.entries.length;
    } else {
      ({ matrix: index.vectors, computed } = await storeEntryVectors(options.root, index.identity, index.entries.length, () => allEntries(index.entries), vectors, index.bm25.keys));
    }
  }
  const query = embedText(options.query, vectors);
  const scores = new Float64Array(docs.length);
  if (query !== undefined) {
    const all = index.vectors.scan(query);
    for (let k = 0; k < docs.length; k++) {
      const similarity = all[docs[k]!]!;
      scores[k] = similarity > WORD_VECTOR_FLOOR ? similarity : 0;
    }
  }
  return { scores, floor: WORD_VECTOR_FLOOR, status: { used: true, message: `${fallback}semantic matching with the built-in word vectors (${WORD_VECTORS_MODEL})`, model: WORD_VECTORS_MODEL, computed } };
}

export interface SemanticOptions {
  root: string;
  index: KnowledgeIndex;
  /** The entries to score: positions in index.entries. */
  docs: readonly number[];
  query: string;
  env?: NodeJS.ProcessEnv | undefined;
}

/**
 * Semantic similarity of entries to the query text: cosine similarity, or 0 at or below the
 * floor. The configured provider's (matching.embeddings, floor semantic_threshold) when there is
 * one and it answers; the built-in word vectors' otherwise (floor WORD_VECTOR_FLOOR). No scores
 * when matching.use_semantic is false.
 *
 * @example
 * const { scores, floor, status } = await semanticScores({ root, index, docs: [0, 1, 2], query: 'add retries' });
 */
export async function semanticScores(options: SemanticOptions): Promise<SemanticScores> {
  const { matching } = options.index;
  if (!matching.use_semantic) return { floor: 0, status: { used: false, message: 'semantic matching is off (matching.use_semantic is false): lexical ranking only' } };
  const config = matching.embeddings;
  if (config === undefined) return wordVectorScores(options, '');
  try {
    const entries = options.docs.map((doc) => options.index.entries.at(doc)!);
    const [query] = await fetchEmbeddings(config, [options.query], options.env);
    const { vectors, computed } = await entryVectors(options.root, config, entries, options.env ?? {});
    const scores = new Float64Array(vectors.length);
    vectors.forEach((vector, i) => {
      const similarity = cosine(query!, vector);
      scores[i] = similarity > matching.semantic_threshold ? similarity : 0;
    });
    return { scores, floor: matching.semantic_threshold, status: { used: true, message: `semantic matching with ${config.model} at ${endpoint(config)}`, model: config.model, computed } };
  } catch (error) {
    return wordVectorScores(options, `the embedding provider at ${endpoint(config)} could not be used (${(error as Error).message}): `);
  }
}
