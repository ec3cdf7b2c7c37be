/**
 * How features reach each other without importing each other: a feature provides its service
 * under a name, and another asks for it by that name when it needs it (at request time, so the
 * order in which features register does not matter). A feature that must react to another's
 * change *inside the same transaction* (a visitor session following its case's disposition)
 * subscribes to a hook, which the changing feature runs before it commits. A feature that offers
 * an extension point (monitoring re-screens subjects of any feature) collects what others
 * contribute to it.
 *
 * The three maps are typed by augmentation, as the database schema is: a feature declares
 * `declare module '…/http/services.ts' { interface Services { name: TheService } }` (or
 * `interface Hooks { 'event.name': Payload }`, `interface Extensions { 'point': Item }`) next
 * to what it provides.
 */
import type { AuditContext } from '../audit/audit.ts';
import type { TenantTransaction } from '../db/tenant.ts';

// Interfaces, not type aliases, because only interfaces can be augmented.
export interface Services {}
export interface Hooks {}
export interface Extensions {}

export type HookHandler<P> = (trx: TenantTransaction, context: AuditContext, payload: P) => Promise<void>;

export type ServiceRegistry = {
  provide<K extends keyof Services>(name: K, service: Services[K]): void;
  /** The service, or an error naming the feature that is missing (a wiring fault, not a request fault). */
  get<K extends keyof Services>(name: K): Services[K];
  on<K extends keyof Hooks>(hook: K, handler: HookHandler<Hooks[K]>): void;
  /** Runs every handler of `hook` in turn, in the caller's transaction: a failure rolls it all back. */
  run<K extends keyof Hooks>(hook: K, trx: TenantTransaction, context: AuditContext, payload: Hooks[K]): Promise<void>;
  extend<K extends keyof Extensions>(point: K, item: Extensions[K]): void;
  /** What every feature contributed to `point`, in the order features registered. */
  extensions<K extends keyof Extensions>(point: K): Extensions[K][];
};

export function createServiceRegistry(): ServiceRegistry {
  const services = new Map<keyof Services, unknown>();
  const handlers = new Map<keyof Hooks, HookHandler<never>[]>();
  const contributions = new Map<keyof Extensions, unknown[]>();
  return {
    provide(name, service) {
      if (services.has(name)) throw new Error(`The service ${String(name)} is provided twice`);
      services.set(name, service);
    },
    get(name) {
      if (!services.has(name)) throw new Error(`No feature provides the service ${String(name)}`);
      return services.get(name) as Services[typeof name];
    },
    on(hook, handler) {
      handlers.set(hook, [...(handlers.get(hook) ?? []), handler as HookHandler<never>]);
    },
    async run(hook, trx, context, payload) {
      for (const handler of handlers.get(hook) ?? []) await (handler as HookHandler<typeof payload>)(trx, context, payload);
    },
    extend(point, item) {
      contributions.set(point, [...(contributions.get(point) ?? []), item]);
    },
    extensions(point) {
      return (contributions.get(point) ?? []) as Extensions[typeof point][];
    },
  };
}
