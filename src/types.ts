// The record types of the `.knowledge/` format. Each interface mirrors one JSON Schema in
// `schemas/`; tests/schema-types.test.ts proves that they agree field by field.

// ---------------------------------------------------------------------------
// Knowledge entries (schemas/knowledge-entry.schema.json)

export type KnowledgeType = 'recommendation' | 'prohibition' | 'learning';
export type KnowledgeScope = 'global' | 'project' | 'agent_type';
export type KnowledgeSource = 'manual' | 'task_success' | 'task_failure' | 'code_review' | 'import';
export type Priority = 'low' | 'medium' | 'high' | 'critical';
export type CaptureOutcome = 'success' | 'failure' | 'partial';

export interface KnowledgeExample {
  scenario: string;
  goodApproach?: string;
  badApproach?: string;
  outcome?: string;
}

/** One input of a rule test: a path ({path}), an added line in a file ({line, path?}) or a plan's approach text ({plan}). */
export interface RuleTestInput {
  path?: string;
  line?: string;
  plan?: string;
}

/** A prohibition's rule tests: inputs it must match and inputs it must not. */
export interface RuleTests {
  match?: RuleTestInput[];
  noMatch?: RuleTestInput[];
}

/** What a captured learning was captured from (kept on pending and approved learnings). */
export interface CaptureContext {
  taskId: string;
  projectId: string;
  outcome: CaptureOutcome;
  description: string;
  whatWorked?: string;
  whatFailed?: string;
  rootCause?: string;
}

export interface KnowledgeEntry {
  id: string;
  type: KnowledgeType;
  title: string;
  description: string;
  details?: string;
  examples?: KnowledgeExample[];
  scope: KnowledgeScope;
  projectId?: string;
  agentTypes?: string[];
  keywords: string[];
  patterns?: string[];
  globs?: string[];
  content?: string[];
  tests?: RuleTests;
  secret?: boolean;
  priority: Priority;
  source: KnowledgeSource;
  sourceRef?: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  validFrom?: string;
  validUntil?: string;
  enabled: boolean;
  capture?: CaptureContext;
  approvedBy?: string;
  approvedAt?: string;
}

// ---------------------------------------------------------------------------
// Store configuration (schemas/config.schema.json)

export interface EmbeddingsConfig {
  url: string;
  model: string;
  timeout_ms?: number;
  api_key_env?: string;
}

export interface MatchingConfig {
  use_semantic: boolean;
  semantic_threshold: number;
  keyword_boost: number;
  embeddings?: EmbeddingsConfig;
}

export interface PreTaskCheckConfig {
  enabled: boolean;
  block_on_critical: boolean;
  max_recommendations: number;
  max_learnings: number;
}

export interface CaptureConfig {
  auto_capture_success: boolean;
  auto_capture_failure: boolean;
  on_turn_record: boolean;
  require_approval: boolean;
}

export interface RetentionConfig {
  max_age_days: number;
  prune_low_priority: boolean;
  min_applications_to_keep: number;
}

export interface TurnsConfig {
  max_per_feature: number;
  max_per_project: number;
  max_turns: number;
}

export interface LimitsConfig {
  max_file_bytes: number;
  max_yaml_aliases: number;
  max_depth: number;
}

/** The configuration with every default filled in. */
/** One org-wide knowledge source of config.yaml's extends. */
export interface ExtendsSource {
  name: string;
  url: string;
  ref?: string;
  path?: string;
}

/** .knowledge/extends.lock: the commit each source is pinned to. */
export interface ExtendsLock {
  version: number;
  sources: ExtendsPin[];
}

/** One source pinned: config.yaml's fields, resolved, and the commit. */
export interface ExtendsPin {
  name: string;
  url: string;
  ref: string;
  path: string;
  commit: string;
}

export interface LoreConfig {
  version: number;
  project?: string;
  extends?: ExtendsSource[];
  matching: MatchingConfig;
  pre_task_check: PreTaskCheckConfig;
  capture: CaptureConfig;
  retention: RetentionConfig;
  turns: TurnsConfig;
  limits: LimitsConfig;
}

/** `config.yaml` as written: every section and setting may be left out to take its default. */
export interface LoreConfigFile {
  version: number;
  project?: string;
  extends?: ExtendsSource[];
  matching?: Partial<MatchingConfig>;
  pre_task_check?: Partial<PreTaskCheckConfig>;
  capture?: Partial<CaptureConfig>;
  retention?: Partial<RetentionConfig>;
  turns?: Partial<TurnsConfig>;
  limits?: Partial<LimitsConfig>;
}

// ---------------------------------------------------------------------------
// Player/coach records (schemas/role-constraints, gate-profile, implementation-mode, project-overrides)

export type Role = 'player' | 'coach';

/** A constraint a program can check: the role must not change files matching these globs. */
export interface PathConstraint {
  text: string;
  paths: string[];
}

export interface RoleConstraints {
  id: string;
  role: Role;
  must_do: string[];
  must_not_do: Array<string | PathConstraint>;
  ask_before: string[];
  escalate_when: string[];
}

export type TaskType = 'scaffolding' | 'feature' | 'testing' | 'documentation' | 'bugfix';

export interface GateProfile {
  id: string;
  task_type: TaskType;
  complexity_range: [number, number];
  arch_review_required: boolean;
  arch_review_threshold?: number;
  coverage_required: boolean;
  coverage_threshold?: number;
  tests_required: boolean;
  tests_must_pass: boolean;
  effective_from?: string;
}

export type ModeName = 'direct' | 'task_work' | 'autobuild';
export type InvocationMethod = 'inline' | 'sdk_query' | 'orchestrated';
export type StateRecoveryStrategy = 'git_check_first' | 'resume_from_checkpoint';
export type CeremonyLevel = 'minimal' | 'standard' | 'full';

export interface ImplementationMode {
  id: string;
  mode: ModeName;
  invocation_method: InvocationMethod;
  result_location_pattern: string;
  state_recovery_strategy: StateRecoveryStrategy;
  when_to_use: string[];
  pitfalls: string[];
  complexity_range: [number, number];
  ceremony_level: CeremonyLevel;
}

export interface RoleOverride {
  must_do_additions?: string[];
  must_not_do_additions?: Array<string | PathConstraint>;
  ask_before_additions?: string[];
  escalate_when_additions?: string[];
}

/** One gate override: the fields it names replace those of the profile whose range it gives. */
export interface GateOverride {
  complexity_range: [number, number];
  arch_review_required?: boolean;
  arch_review_threshold?: number;
  coverage_required?: boolean;
  coverage_threshold?: number;
  tests_required?: boolean;
  tests_must_pass?: boolean;
}

export interface TaskTypeOverrides {
  overrides: GateOverride[];
}

export interface RoleOverrides {
  player?: RoleOverride;
  coach?: RoleOverride;
}

export interface GateOverrides {
  scaffolding?: TaskTypeOverrides;
  feature?: TaskTypeOverrides;
  testing?: TaskTypeOverrides;
  documentation?: TaskTypeOverrides;
  bugfix?: TaskTypeOverrides;
}

export interface ProjectOverrides {
  project?: string;
  role_constraints?: RoleOverrides;
  quality_gate_configs?: GateOverrides;
}

// ---------------------------------------------------------------------------
// Context graph (schemas/graph-entity, graph-update, graph-memory)

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A relationship as stored in its owner's file: `from` is the owning entity. */
export interface OwnedRelationship {
  to: string;
  type: string;
  properties?: Record<string, JsonValue>;
}

export interface GraphEntityRecord {
  name: string;
  type: string;
  description?: string;
  tags?: string[];
  properties?: Record<string, JsonValue>;
  relationships?: OwnedRelationship[];
}

/** An entity in memory, with every field present. */
export interface Entity {
  name: string;
  description: string;
  type: string;
  tags: string[];
  properties: Record<string, JsonValue>;
}

/** A relationship in memory, with every field present. */
export interface Relationship {
  from: string;
  to: string;
  type: string;
  properties: Record<string, JsonValue>;
}

export interface GraphMemory {
  entities: Entity[];
  relationships: Relationship[];
}

/** An entity in a memory file (`context.json`): only name and type are required. */
export interface EntityInput {
  name: string;
  type: string;
  description?: string;
  tags?: string[];
  properties?: Record<string, JsonValue>;
}

export interface RelationshipInput {
  from: string;
  to: string;
  type: string;
  properties?: Record<string, JsonValue>;
}

/** The single-file form of the graph (`--memory-file`, default `context.json`). */
export interface GraphMemoryFile {
  entities: EntityInput[];
  relationships: RelationshipInput[];
}

export interface EntityUpdate {
  name: string;
  type?: string;
  description?: string;
  tags?: string[];
  properties?: Record<string, JsonValue>;
  removeTags?: string[];
  removeProperties?: string[];
}

export interface RelationshipUpdate {
  from: string;
  to: string;
  type: string;
  properties?: Record<string, JsonValue>;
}

export interface RelationshipKey {
  from: string;
  to: string;
  type: string;
}

export interface GraphRemoval {
  entities?: string[];
  relationships?: RelationshipKey[];
}

export interface GraphUpdate {
  entities?: EntityUpdate[];
  relationships?: RelationshipUpdate[];
  remove?: GraphRemoval;
}

// ---------------------------------------------------------------------------
// Turn states (schemas/turn-state.schema.json): lines of turns/<project>/<feature>.ndjson

export type CoachDecision = 'approve' | 'revise' | 'escalate';
export type AcceptanceStatus = 'verified' | 'pending' | 'rejected' | 'blocked';
export type TurnMode = 'FRESH_START' | 'RECOVERING_STATE' | 'CONTINUING_WORK';

export interface TurnState {
  id: string;
  feature_id: string;
  task_id: string;
  turn_number: number;
  player_decision: string;
  coach_decision: CoachDecision;
  coach_reason?: string;
  blockers_found: string[];
  progress_summary: string;
  acceptance_criteria_status: Record<string, AcceptanceStatus>;
  mode: TurnMode;
  quality_gate_results: Record<string, JsonValue> | null;
  timestamp: string;
}

/** Marks a feature as completed, which makes its turns eligible for pruning. */
export interface FeatureCompletion {
  id: string;
  feature_id: string;
  completed: true;
  timestamp: string;
}

/** Deletes the record with the same id when it is the latest line for that id. */
export interface Tombstone {
  id: string;
  deleted: true;
  timestamp: string;
}

// ---------------------------------------------------------------------------
// Thought DAG (schemas/dag-line.schema.json): lines of log/knowledge_graph.ndjson

export type DagRole = 'actor' | 'critic' | 'summary';
export type Verdict = 'approved' | 'needs_revision' | 'reject';

export interface ArtifactRef {
  id: string;
  project: string;
  name: string;
  path: string;
  uri?: string;
  hash?: string;
  contentType?: string;
  /** Required on artifact lines of the log; absent on references embedded in a node. */
  createdAt?: string;
}

export interface DagNode {
  id: string;
  project: string;
  projectContext: string;
  thought: string;
  role: DagRole;
  verdict?: Verdict;
  verdictReason?: string;
  verdictReferences?: string[];
  target?: string;
  parents: string[];
  children: string[];
  tags: string[];
  artifacts?: ArtifactRef[];
  branchLabel?: string;
  createdAt: string;
  updatedAt?: string;
  summarizedSegment?: string[];
}

export interface DagTombstone {
  id: string;
  project: string;
  deleted: true;
  createdAt: string;
}

// ---------------------------------------------------------------------------
// Commit guard (schemas/allow-record.schema.json): .knowledge/allow/<id>.yaml

export interface AllowRecord {
  id: string;
  entry: string;
  paths: string[];
  reason: string;
  author: string;
  expires?: string;
}

// ---------------------------------------------------------------------------
// Usage statistics (schemas/application-event.schema.json): lines of log/applications.ndjson

export interface ApplicationEvent {
  id: string;
  entryId: string;
  taskId: string;
  helpful?: boolean;
  appliedBy?: string;
  timestamp: string;
  undated?: true;
}

// ---------------------------------------------------------------------------
// Pre-task check input (schemas/task-plan.schema.json)

export interface TaskContext {
  id?: string;
  type?: string;
  description: string;
  projectId?: string;
  agentType?: string;
}

export interface FileChange {
  path: string;
  change?: string;
}

export interface DevelopmentPlan {
  approach: string;
  fileChanges: FileChange[];
  technologies?: string[];
}

/** A task and its plan in one object (stdin of `lore check-plan`). */
export interface TaskPlanInput {
  task: TaskContext;
  plan: DevelopmentPlan;
}

// ---------------------------------------------------------------------------
// Learning capture (schemas/learning-capture.schema.json, schemas/rejection-event.schema.json)

export interface LearningCapture extends CaptureContext {
  suggestedTitle: string;
  suggestedDescription: string;
  suggestedKeywords?: string[];
  suggestedPriority?: Priority;
  source?: 'task_success' | 'task_failure' | 'code_review';
  sourceRef?: string;
}

/** A line of log/rejections.ndjson: a captured learning a person rejected. */
export interface RejectionEvent {
  id: string;
  title: string;
  description: string;
  reason: string;
  rejectedBy: string;
  taskId?: string;
  timestamp: string;
}
