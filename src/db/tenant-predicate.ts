/**
 * The second wall: every query a tenant transaction builds names its organization. Row-level
 * security is the wall (it holds whatever SQL a store writes); this plugin adds, for each tenant
 * table a SELECT, UPDATE or DELETE reads, `organization_id = <the transaction's organization>`
 * (a bind parameter, so the statement's text, and its prepared name, are the same for every
 * organization). A table in FROM gets it in WHERE; a joined one in its ON, so a LEFT JOIN stays one.
 *
 * Why, beside row-level security: a distributed engine (Citus, issue 28) routes a statement to the
 * one shard that holds an organization only when the statement names it; filtered by row-level
 * security alone, every statement went to every shard. And a predicate the statement carries does
 * not depend on a setting a connection might lack.
 *
 * An INSERT is left as it is: its rows name their organization, which row-level security checks.
 * SQL written by hand (`sql\`…\``) is not rewritten: a store that sends it names the organization
 * itself, which test/db/tenant-predicate.test.ts holds it to.
 */
import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  type DeleteQueryNode,
  JoinNode,
  type KyselyPlugin,
  type OperationNode,
  OperatorNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  QueryNode,
  type QueryResult,
  ReferenceNode,
  type RootOperationNode,
  type SelectQueryNode,
  TableNode,
  type UnknownRow,
  type UpdateQueryNode,
  ValueNode,
} from 'kysely';

/** The tables row-level security walls off by `organization_id` (each migration's `enable_tenant_isolation`; test/db/tenant-predicate.test.ts checks the two agree). */
export const TENANT_TABLES: ReadonlySet<string> = new Set([
  'adjudication_rules',
  'api_keys',
  'audit_events',
  'audit_heads',
  'case_events',
  'cases',
  'console_users',
  'event_outbox',
  'idempotency_keys',
  'inbound_webhook_receipts',
  'inbound_webhook_secrets',
  'monitoring_runs',
  'ownership_check_parties',
  'ownership_checks',
  'revoked_tokens',
  'screenings',
  'settings_stamps',
  'suppressions',
  'vendors',
  'visitor_sessions',
  'watchlist_entries',
  'watchlist_versions',
  'watchlists',
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
  'workforce_profiles',
  'workforce_syncs',
]);

/** The name a query refers to a tenant table by (its alias, or its own name), when `node` is one. */
function tenantReference(node: OperationNode): string | undefined {
  const table = AliasNode.is(node) ? node.node : node;
  if (!TableNode.is(table) || table.table.schema || !TENANT_TABLES.has(table.table.identifier.name)) return undefined;
  return AliasNode.is(node) && 'name' in node.alias ? (node.alias as { name: string }).name : table.table.identifier.name;
}

/** Nodes with nothing inside to name: values (a record can be thousands of nodes deep), names, operators, references. */
const LEAVES = new Set(['ValueNode', 'PrimitiveValueListNode', 'IdentifierNode', 'ColumnNode', 'OperatorNode', 'ReferenceNode', 'TableNode', 'RawNode']);

type Scoped = SelectQueryNode | UpdateQueryNode | DeleteQueryNode;

/** The tables a query reads in its FROM (and an UPDATE's target, a DELETE's USING): named in its WHERE. */
function fromsOf(node: Scoped): readonly OperationNode[] {
  switch (node.kind) {
    case 'SelectQueryNode':
      return node.from?.froms ?? [];
    case 'UpdateQueryNode':
      return [...(node.table ? [node.table] : []), ...(node.from?.froms ?? [])];
    case 'DeleteQueryNode':
      return [...node.from.froms, ...(node.using?.tables ?? [])];
  }
}

const SCOPED = new Set(['SelectQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

/**
 * `node` with every query in it naming the organization. Walked by hand rather than with Kysely's
 * OperationNodeTransformer, which copies every node of every query: a node is copied here only
 * when something inside it changed (a third of the cost of building and compiling a query, not two).
 */
function naming(node: unknown, names: (table: string) => OperationNode): unknown {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) {
    let changed: unknown[] | undefined;
    node.forEach((item, i) => {
      const scoped = naming(item, names);
      if (scoped !== item) (changed ??= [...node])[i] = scoped;
    });
    return changed ? Object.freeze(changed) : node;
  }
  const kind = (node as { kind?: string }).kind;
  if (kind !== undefined && LEAVES.has(kind)) return node;
  let copy: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(node)) {
    const scoped = naming(child, names);
    if (scoped !== child) (copy ??= { ...(node as Record<string, unknown>) })[key] = scoped;
  }
  const inner = (copy ?? node) as OperationNode;
  return kind !== undefined && SCOPED.has(kind) ? withOrganization(inner as Scoped, names) : inner;
}

/** Each tenant table of the query's FROM named in its WHERE, and each joined one in its ON. */
function withOrganization<T extends Scoped>(node: T, names: (table: string) => OperationNode): T {
  let scoped = node;
  for (const from of fromsOf(node)) {
    const table = tenantReference(from);
    if (table) scoped = QueryNode.cloneWithWhere(scoped, names(table));
  }
  if (!scoped.joins?.some((join) => tenantReference(join.table))) return scoped;
  const joins = scoped.joins.map((join): JoinNode => {
    const table = tenantReference(join.table);
    return table ? JoinNode.cloneWithOn(join, names(table)) : join;
  });
  return { ...scoped, joins };
}

/** The plugin the tenant door installs on a transaction of `organizationId`. */
export function namingOrganization(organizationId: string): KyselyPlugin {
  const names = (table: string): OperationNode =>
    BinaryOperationNode.create(
      ReferenceNode.create(ColumnNode.create('organization_id'), TableNode.create(table)),
      OperatorNode.create('='),
      ValueNode.create(organizationId),
    );
  return {
    transformQuery: ({ node }: PluginTransformQueryArgs): RootOperationNode =>
      // An insert's rows name their organization; its values can be thousands of nodes, left unvisited.
      node.kind === 'InsertQueryNode' ? node : (naming(node, names) as RootOperationNode),
    transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => result,
  };
}
