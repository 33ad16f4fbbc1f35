import type { JobHandler } from "./jobs/schedule.js";
import type { CollectionRecord } from "./collections/tables.js";
import type { MemberRecord } from "./members/tables.js";
import type { AnyOperation } from "./registry.js";
import type { SpaceRecord } from "./spaces/tables.js";
import type { TeamRecord } from "./teams/tables.js";
import type { Lifecycle, TransferredContent, World } from "./shared/world.js";
import type { Table, WriteTransaction } from "./storage/port.js";
import { type CountedRange, countersTable } from "./shared/counters.js";

/**
 * A resource folder's one export (STYLE.md, rule 8): its tables, operations, job handlers and
 * lifecycle hooks. The registry, the storage schema, the job handler map and the cascades are
 * loops over the list of modules in `src/core/modules.ts`, so adding a resource touches its own
 * folder and that list. See docs/architecture.md, "Adding a resource".
 */
export interface ResourceModule<
  Ops extends Readonly<Record<string, AnyOperation>> = Readonly<Record<string, AnyOperation>>,
> {
  /** The folder's name, for messages and for the registry test. */
  readonly name: string;
  /** The tables the module owns; their names are unique across modules. */
  readonly tables: readonly Table<object>[];
  /** Its operations, keyed by their literal ids. */
  readonly operations: Ops;
  /** The index ranges its lists count, kept in counter records (see `shared/counters.ts`). */
  readonly counts?: readonly CountedRange[];
  /** Handlers of the job types it schedules, keyed by type; types are unique across modules. */
  readonly jobs?: Readonly<Record<string, JobHandler>>;
  /** What it does when another resource's lifecycle event happens. */
  readonly hooks?: LifecycleHooks;
}

/** A module's share of the {@link Lifecycle} events, each run inside the causing transaction. */
export interface LifecycleHooks {
  /** Removes what belongs to this space alone before the space itself goes. */
  readonly purgeSpace?: (tx: WriteTransaction, world: World, space: SpaceRecord) => Promise<void>;
  /** Drops what the member had in the organization (team memberships...). */
  readonly memberRemoved?: (tx: WriteTransaction, world: World, member: MemberRecord) => Promise<void>;
  /** Drops what was on the collection, which goes for good (its spaces are only soft-deleted). */
  readonly collectionDeleted?: (
    tx: WriteTransaction,
    world: World,
    collection: CollectionRecord,
  ) => Promise<void>;
  /** Drops what was given to the team. */
  readonly teamRemoved?: (tx: WriteTransaction, world: World, team: TeamRecord) => Promise<void>;
  /** Drops what named the old organization's members or teams on content that left it. */
  readonly contentTransferred?: (
    tx: WriteTransaction,
    world: World,
    content: TransferredContent,
  ) => Promise<void>;
}

/** Declares a module; the identity function, there for type inference of its operation ids. */
export function defineModule<const Ops extends Readonly<Record<string, AnyOperation>>>(
  module: ResourceModule<Ops>,
): ResourceModule<Ops> {
  return module;
}

/** The intersection of the members of a union: how {@link OperationsOf} merges modules. */
export type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** The operations of a list of modules, merged, with their literal ids. */
export type OperationsOf<Ms extends readonly ResourceModule[]> = UnionToIntersection<
  Ms[number]["operations"]
>;

/** What {@link assemble} derives from a list of modules. */
export interface Assembly<Ms extends readonly ResourceModule[]> {
  readonly modules: Ms;
  /** Every operation, keyed by its literal id. */
  readonly operations: OperationsOf<Ms>;
  readonly schema: { readonly tables: Table<object>[] };
  /** Every module's counted ranges, for `countedStorage`. */
  readonly counts: readonly CountedRange[];
  readonly jobs: Record<string, JobHandler>;
  /** Every module's hooks run as one, over the world `world()` returns when they run. */
  lifecycle(world: () => World): Lifecycle;
}

/**
 * Everything derived from a list of modules: the registry, the tables, the job map and the
 * lifecycle. Fails on a duplicate operation id, table name or job type, so two modules cannot
 * silently shadow each other.
 */
export function assemble<const Ms extends readonly ResourceModule[]>(modules: Ms): Assembly<Ms> {
  const operations: Record<string, AnyOperation> = {};
  const tables: Table<object>[] = [];
  const jobs: Record<string, JobHandler> = {};
  // The counters table is docsbase's own (added below when a module counts a list).
  const seen = { table: new Set<string>([countersTable.name]) };
  for (const module of modules) {
    for (const [id, operation] of Object.entries(module.operations)) {
      if (id in operations) throw new Error(`Operation "${id}" is declared twice (module ${module.name})`);
      if (id !== operation.id) throw new Error(`Operation "${operation.id}" is listed as "${id}"`);
      operations[id] = operation;
    }
    for (const table of module.tables) {
      if (table.name === countersTable.name)
        throw new Error(
          `Table "${table.name}" is reserved for docsbase's list counters (module ${module.name})`,
        );
      if (seen.table.has(table.name))
        throw new Error(`Table "${table.name}" is declared twice (module ${module.name})`);
      seen.table.add(table.name);
      tables.push(table);
    }
    for (const [type, handler] of Object.entries(module.jobs ?? {})) {
      if (type in jobs) throw new Error(`Job type "${type}" is declared twice (module ${module.name})`);
      jobs[type] = handler;
    }
  }
  const counts = modules.flatMap((module) => module.counts ?? []);
  if (counts.length > 0) tables.push(countersTable);
  const hooks = modules.flatMap((module) => (module.hooks ? [module.hooks] : []));
  const lifecycle = (world: () => World): Lifecycle => ({
    async purgeSpace(tx, space) {
      for (const hook of hooks) await hook.purgeSpace?.(tx, world(), space);
    },
    async memberRemoved(tx, member) {
      for (const hook of hooks) await hook.memberRemoved?.(tx, world(), member);
    },
    async collectionDeleted(tx, collection) {
      for (const hook of hooks) await hook.collectionDeleted?.(tx, world(), collection);
    },
    async teamRemoved(tx, team) {
      for (const hook of hooks) await hook.teamRemoved?.(tx, world(), team);
    },
    async contentTransferred(tx, content) {
      for (const hook of hooks) await hook.contentTransferred?.(tx, world(), content);
    },
  });
  return {
    modules,
    operations: operations as OperationsOf<Ms>,
    schema: { tables },
    counts,
    jobs,
    lifecycle,
  };
}
