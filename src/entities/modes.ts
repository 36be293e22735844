// Implementation-mode advice (advisory only, never a gate). The spec's ranges overlap (direct 1-3,
// task_work 3-7, autobuild 5-10), so among the modes whose range holds the complexity the one
// with the nearest range midpoint wins, and a tie goes to less ceremony.
import type { CeremonyLevel, ImplementationMode, ModeName } from '../types.js';
import { BUILT_IN_FALLBACKS, checkComplexity, checkTaskType, readValidRecords, type Origin, type RuntimeOptions } from './sources.js';

const CEREMONY_ORDER: readonly CeremonyLevel[] = ['minimal', 'standard', 'full'];

export interface ModeSuggestion {
  mode: ModeName;
  ceremony_level: CeremonyLevel;
  complexity_range: [number, number];
  /** The first two when_to_use items. */
  when_to_use: string[];
  /** The first pitfall, if the mode lists any. */
  pitfall?: string;
  origin: Origin;
  /** Every mode whose range held the complexity, the chosen one first. */
  candidates: ModeName[];
}

/** The modes in effect: the store's, plus built-in modes the store does not have. */
export async function implementationModes(options: Pick<RuntimeOptions, 'store' | 'fallbacks'>): Promise<Array<{ mode: ImplementationMode; origin: Origin }>> {
  const stored = (await readValidRecords<ImplementationMode>(options.store, 'mode')).map((r) => ({ mode: r.value, origin: { source: 'store', file: r.file } as Origin }));
  const builtIn = (options.fallbacks ?? BUILT_IN_FALLBACKS).modes.filter((m) => !stored.some((s) => s.mode.mode === m.mode)).map((mode) => ({ mode, origin: { source: 'fallback' } as Origin }));
  return [...stored, ...builtIn];
}

/** Orders candidate modes: nearest range midpoint first, then less ceremony. */
export function rankModes<T extends Pick<ImplementationMode, 'complexity_range' | 'ceremony_level'>>(modes: readonly T[], complexity: number): T[] {
  const distance = (m: T): number => Math.abs((m.complexity_range[0] + m.complexity_range[1]) / 2 - complexity);
  return modes
    .filter((m) => m.complexity_range[0] <= complexity && complexity <= m.complexity_range[1])
    .sort((a, b) => distance(a) - distance(b) || CEREMONY_ORDER.indexOf(a.ceremony_level) - CEREMONY_ORDER.indexOf(b.ceremony_level));
}

/**
 * Suggests an implementation mode for a task; undefined when no mode covers the complexity (or
 * none exist): the task proceeds without advice. The task type is checked; the spec's modes
 * depend on complexity alone.
 *
 * @example
 * (await suggestMode({ store, taskType: 'feature', complexity: 7 }))?.mode; // → 'autobuild'
 */
export async function suggestMode(options: Pick<RuntimeOptions, 'store' | 'fallbacks'> & { taskType: string; complexity: number }): Promise<ModeSuggestion | undefined> {
  checkTaskType(options.taskType);
  const modes = await implementationModes(options);
  checkComplexity(options.complexity, `modes: ${modes.map(({ mode }) => `${mode.mode} ${mode.complexity_range.join('-')}`).join(', ') || 'none'}`);
  const ranked = rankModes(modes.map((m) => ({ ...m.mode, origin: m.origin })), options.complexity);
  const best = ranked[0];
  if (best === undefined) return undefined;
  return {
    mode: best.mode,
    ceremony_level: best.ceremony_level,
    complexity_range: best.complexity_range,
    when_to_use: best.when_to_use.slice(0, 2),
    ...(best.pitfalls[0] === undefined ? {} : { pitfall: best.pitfalls[0] }),
    origin: best.origin,
    candidates: ranked.map((m) => m.mode),
  };
}
