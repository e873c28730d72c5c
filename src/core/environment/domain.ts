// What a domain provides to the engine: its toolkits, DB models, policy texts and task set.
import type { Task, TaskSplits } from '../schemas/task.ts';
import type { Toolkit } from './toolkit.ts';
import type { ToolType } from '../schemas/simulation.ts';
import type { PyValue } from '../py/index.ts';
import type { KnowledgeDocument } from '../knowledge/documents.ts';

/** Reads a reference data file by its path relative to the data root (e.g. `domains/mock/db.json`). */
export interface DataSource {
  readText(path: string): Promise<string>;
}

export interface DomainData<Db = unknown, UserDb = unknown> {
  /** Frozen base DBs, shared read-only by every episode of the process / isolate. */
  readonly db: Db;
  readonly userDb: UserDb | null;
  readonly policy: string;
  readonly soloPolicy: string | null;
  readonly tasks: readonly Task[];
  readonly splits: TaskSplits | null;
  /** The knowledge base, for domains whose agent searches one (in a fixed order). */
  readonly documents?: readonly KnowledgeDocument[];
  /** Policy texts by retrieval configuration, for domains whose policy depends on it (see `EpisodeAssembly`). */
  readonly policies?: Readonly<Record<string, string>>;
}

/** What decides an episode's agent toolkit and policy beyond the domain: the run's retrieval configuration and the task. */
export interface EpisodeSetup {
  readonly task: Task;
  /** Always set for a domain with an `EpisodeAssembly` (its default when the run names none). */
  readonly retrievalConfig: string;
  readonly retrievalConfigKwargs: Readonly<Record<string, PyValue>> | null;
}

/**
 * A domain whose agent toolkit and policy are built per episode (reference: the `retrieval_variant`,
 * `retrieval_kwargs`, `task` and `read_log_allowlist` a domain's `get_environment` takes).
 */
export interface EpisodeAssembly<Db, UserDb> {
  /** Every configuration name the domain knows, in its registry order. */
  readonly configNames: readonly string[];
  /** The configuration a run gets when it names none (recorded as if named). */
  readonly defaultConfig: string;
  /** Why a configuration cannot run here (unknown name, tools not available), or null when it can. */
  readonly refusal: (name: string, kwargs: Readonly<Record<string, PyValue>> | null) => string | null;
  /** Why the configuration's settings (`retrieval_config_kwargs`) are not acceptable, or null. */
  readonly kwargsRefusal?: (kwargs: Readonly<Record<string, PyValue>>) => string | null;
  readonly assemble: (data: DomainData<Db, UserDb>, setup: EpisodeSetup) => { readonly agentToolkit: Toolkit<Db>; readonly policy: string };
  /** The policy a run's results record (`Info.environment_info.policy`), which may be a placeholder. */
  readonly runPolicy: (data: DomainData<Db, UserDb>, name: string, kwargs: Readonly<Record<string, PyValue>> | null) => string;
}

/** The failures a task's gold actions are known to produce, in order as `tool_name: message`, and why. */
export interface GoldActionErrors {
  readonly errors: readonly string[];
  readonly reason: string;
}

/**
 * Gold actions a domain's tools refuse with a returned text (`Error…`, not raised), known to be refused in the
 * reference too: in order as `tool: text`, discoverable tools by their own name, and why.
 */
export interface GoldActionRefusals {
  readonly refusals: readonly string[];
  readonly reason: string;
}

/** Both DBs of an environment as drafts, for domains whose state must be kept in sync across them. */
export interface SyncDrafts<Db, UserDb> {
  readonly db: Db;
  readonly userDb: UserDb;
}

export interface Domain<Db = unknown, UserDb = unknown> {
  readonly name: string;
  readonly agentToolkit: Toolkit<Db>;
  readonly userToolkit: Toolkit<UserDb> | null;
  /** The user toolkit works on the agent's DB itself (the domain has one DB, `userDb` is null). */
  readonly userToolkitSharesDb?: boolean;
  readonly supportsSolo: boolean;
  /** Reference tasks that cannot score 1.0 even when played perfectly, with the reason. */
  readonly knownIssues?: Readonly<Record<string, string>>;
  /** Reference tasks whose gold actions raise in the reference too (the gold DB skips them), by task id. */
  readonly goldActionErrors?: Readonly<Record<string, GoldActionErrors>>;
  /**
   * For domains whose tools refuse with returned text, the gold actions refused in the reference too, by task id;
   * check-data then requires exactly these refusals (a gold action refused both live and in the gold run would
   * otherwise go unnoticed).
   */
  readonly goldActionRefusals?: Readonly<Record<string, GoldActionRefusals>>;
  /** The part of a DB the reference hashes, where a domain keeps toolkit memory beside it (default: all of it). */
  readonly hashedDb?: (db: Db) => unknown;
  /** The DB model's validation (pydantic `model_validate`), used after an `initialization_data` update. */
  readonly parseDb: (value: unknown) => Db;
  readonly parseUserDb: ((value: unknown) => UserDb) | null;
  /** Present when the agent toolkit and policy depend on the run's retrieval configuration and the task. */
  readonly episodeAssembly?: EpisodeAssembly<Db, UserDb>;
  /** The reference's `sync_tools`: runs after every successful tool call and every step; absent = no-op. */
  readonly syncTools?: (drafts: SyncDrafts<Db, UserDb>) => void;
  readonly load: (source: DataSource) => Promise<DomainData<Db, UserDb>>;
}

/** A domain with its DB types erased, as the engine and the registry hold it. */
export type AnyDomain = Domain<unknown, unknown>;

/** Erases a domain's DB types: the engine only passes each toolkit the DB that domain built for it. */
export const defineDomain = <Db, UserDb>(domain: Domain<Db, UserDb>): AnyDomain => domain as unknown as AnyDomain;

/** Tool types by name, agent tools overridden by user tools (the reference evaluator's `tool_types`). */
export const domainToolTypes = (domain: AnyDomain): Record<string, ToolType> => {
  const types: Record<string, ToolType> = {};
  for (const toolkit of [domain.agentToolkit, domain.userToolkit]) {
    if (!toolkit) continue;
    for (const [name, spec] of Object.entries(toolkit.tools)) types[name] = spec.type;
  }
  return types;
};
