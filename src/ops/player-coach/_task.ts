// What the gate and mode operations take: a task's type and complexity, and the project.

/** A task as the player/coach operations take it (the gate-profile schema's field names). */
export interface TaskInput {
  task_type: string;
  complexity: number;
  project?: string;
}
