// One context-graph benchmark task in a fresh process, on the built code. Prints one JSON line of figures.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMemoryFile, memoryFileText, saveMemoryFile } from '../dist/graph/memory-file.js';
import { ContextGraph } from '../dist/graph/model.js';
import { contextString } from '../dist/graph/serialize-text.js';
import { loadStoreGraph, toEntityRecord } from '../dist/graph/store-graph.js';
import { entityFileStem } from '../dist/store/ids.js';
import { renderRecord } from '../dist/store/write.js';

const [task, ...args] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const out = (figures) => process.stdout.write(`${JSON.stringify({ ...figures, maxRssKb: process.resourceUsage().maxRSS })}\n`);

/** A deterministic pseudo-random generator, so every run measures the same graph. */
function rng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const TYPES = ['service', 'data_store', 'queue', 'library', 'web_page', 'api_gateway', 'adr', 'requirement', 'ticket'];
const RELS = ['calls', 'reads_from', 'writes_to', 'depends_on', 'documents', 'publishes_to', 'implements'];
const TAGS = ['core', 'payments', 'auth', 'legacy', 'eu', 'us', 'batch', 'realtime'];
const name = (i) => `Component ${i} ${TYPES[i % TYPES.length]}`;

/** `count` entities and 3 × count relationships, as one update. */
function update(count, seed, offset = 0) {
  const next = rng(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const entities = Array.from({ length: count }, (_, k) => {
    const i = k + offset;
    return { name: name(i), type: TYPES[i % TYPES.length], description: `Handles ${pick(TAGS)} ${pick(RELS)} for the ${pick(TAGS)} flow; owned by team ${i % 40}.`, tags: [pick(TAGS), pick(TAGS)], properties: { owner: `team-${i % 40}`, tier: i % 3 } };
  });
  const relationships = [];
  const total = offset + count;
  for (let k = 0; k < count * 3; k++) {
    const from = offset + Math.floor(next() * count);
    relationships.push({ from: name(from), to: name(Math.floor(next() * total)), type: pick(RELS), properties: k % 4 === 0 ? { weight: k % 10 } : {} });
  }
  return { entities, relationships };
}

function graphOf(count) {
  const graph = new ContextGraph();
  graph.applyUpdate(update(count, 7));
  return graph;
}

if (task === 'generate') {
  // Writes the same graph as a memory file and as a store, without fsyncs (generation is not measured).
  const [dir, count] = [args[0], Number(args[1])];
  const graph = graphOf(count);
  writeFileSync(join(dir, 'context.json'), memoryFileText(graph.toJSON()));
  const entities = join(dir, 'store/.knowledge/graph/entities');
  mkdirSync(entities, { recursive: true });
  writeFileSync(join(dir, 'store/.knowledge/config.yaml'), 'version: 1\n');
  for (const entity of graph.entities()) writeFileSync(join(entities, `${entityFileStem(entity.name)}.yaml`), renderRecord('entity', toEntityRecord(entity, graph.outgoing(entity.name))));
  out({ entities: graph.entityCount, relationships: graph.relationshipCount, bytes: statSync(join(dir, 'context.json')).size });
} else if (task === 'load-store') {
  const started = now();
  const { graph } = await loadStoreGraph(args[0], { cache: args[1] === 'cached' });
  out({ ms: now() - started, entities: graph.entityCount, relationships: graph.relationshipCount });
} else if (task === 'load-memory') {
  const started = now();
  const { graph } = await loadMemoryFile(args[0]);
  out({ ms: now() - started, entities: graph.entityCount, relationships: graph.relationshipCount });
} else if (task === 'apply') {
  // 1,000 entities (half new, half updates of existing ones) and 3,000 relationships, then the save.
  const [file, count] = [args[0], Number(args[1])];
  const { graph } = await loadMemoryFile(file);
  const payload = update(count, 11, graph.entityCount - count / 2);
  const started = now();
  const result = graph.applyUpdate(payload);
  const applied = now();
  await saveMemoryFile(`${file}.out`, graph);
  out({ ms: applied - started, saveMs: now() - applied, added: result.added.entities.length, updated: result.updated.entities.length });
} else if (task === 'neighbourhood' || task === 'context') {
  const [file, queries, budget] = [args[0], Number(args[1]), Number(args[2] ?? 2000)];
  const { graph } = await loadMemoryFile(file);
  const next = rng(3);
  const latencies = [];
  let size = 0;
  for (let q = 0; q < queries; q++) {
    const around = name(Math.floor(next() * graph.entityCount));
    const started = now();
    if (task === 'neighbourhood') size += graph.neighbours(around, { depth: 2 }).entities.length;
    else size += contextString(graph, { around: [around], depth: 2, budget }).tokens;
    latencies.push(now() - started);
  }
  const whole = now();
  const all = contextString(graph, { budget: budget * 4 });
  out({ latencies, average: size / queries, wholeMs: now() - whole, wholeTokens: all.tokens });
} else {
  throw new Error(`unknown task ${task}`);
}
