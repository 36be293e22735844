import type { TaskPlanInput } from '../src/types.js';

/** The i-th benchmark task and plan. */
export function taskAndPlan(i: number): TaskPlanInput;
