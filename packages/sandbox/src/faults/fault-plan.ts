// The fault plan of each organization, kept in the sandbox's store: armed rules that count down as they fire,
// and a log of the faults that fired. The rest of the sandbox reaches it through `FaultPlan` only, so a store
// several sandbox processes share (the PostgreSQL store) can hold it without touching the callers; each method
// is one transaction of that store, so two replicas never fire the last `times` of a rule twice.
import { randomUUID } from "node:crypto";
import { ApiError } from "../domain/api-error.js";
import type { Store, Table } from "../store/store.js";
import { type FaultKind, REQUEST_FAULTS, WEBHOOK_FAULTS } from "./fault-kinds.js";
import type { FaultRuleRow, FaultScope, FiredFaultRow } from "./fault-records.js";
import type { FaultRequest } from "./fault-request.js";
import { FAULT_FIRED_TABLE, FAULT_RULE_TABLE } from "./fault-tables.js";

/** Rules armed at once per organization: enough for any test plan, and a listing stays one small answer. */
export const MAX_ARMED_RULES = 100;

/** Fired faults kept per organization, newest: older ones are forgotten as new ones fire (chaos mode fires on). */
export const MAX_FIRED_KEPT = 1000;

/** What fired, besides the rule: where (request or event) and with which wait. */
export type FiredDetails = Omit<FiredFaultRow, "id" | "org" | "created_at" | "rule_id" | "source" | "scope" | "fault">;

export interface FiredSummary {
  /** The faults kept of those that fired since the plan was last cleared: the last MAX_FIRED_KEPT at most. */
  total: number;
  byFault: Partial<Record<FaultKind, number>>;
  /** The most recent ones, newest first. */
  recent: FiredFaultRow[];
}

export interface FaultPlan {
  arm(org: string, request: FaultRequest): Promise<FaultRuleRow>;
  /** The organization's armed rules, oldest first. */
  armed(org: string): Promise<FaultRuleRow[]>;
  /**
   * The oldest armed rule of the organization matching the target (or "*"), counted down (and disarmed at zero),
   * its firing recorded; undefined when none matches.
   */
  take(org: string, scope: FaultScope, target: string, details: FiredDetails): Promise<FaultRuleRow | undefined>;
  /** Records a fault that chaos mode chose. */
  recordChaos(org: string, scope: FaultScope, fault: FaultKind, details: FiredDetails): Promise<FiredFaultRow>;
  fired(org: string, limit: number): Promise<FiredSummary>;
  /** Disarms every rule of the organization and forgets what fired; answers how many of each. */
  clear(org: string): Promise<{ armed: number; fired: number }>;
}

/**
 * The fault plan on the sandbox's own store (SQLite, in memory or a file).
 *
 * @example
 * const plan = new StoreFaultPlan(store);
 * plan.arm(org, { scope: "request", target: "initiatePayout", fault: "HTTP_503", times: 2 });
 * plan.take(org, "request", "initiatePayout", { method: "POST", path: "/pos/api/v1/payout/initiate" }); // the rule, 1 left
 */
export class StoreFaultPlan implements FaultPlan {
  private readonly rules: Table<FaultRuleRow>;
  private readonly firedFaults: Table<FiredFaultRow>;

  /** Over a store opened with FAULT_TABLES_SQL in its featureSchema (compose/store-wiring.ts). */
  constructor(private readonly store: Store) {
    this.rules = store.table(FAULT_RULE_TABLE);
    this.firedFaults = store.table(FAULT_FIRED_TABLE);
  }

  async arm(org: string, request: FaultRequest): Promise<FaultRuleRow> {
    const row: FaultRuleRow = {
      id: randomUUID(),
      org,
      created_at: new Date().toISOString(),
      ...request,
      remaining: request.times,
    };
    return await this.store.transaction(async () => {
      // Counted inside the transaction: two replicas arming at once cannot both pass the bound.
      if ((await this.rules.count("org = ?", org)) >= MAX_ARMED_RULES) throw tooManyRules();
      return await this.rules.put(row);
    });
  }

  async armed(org: string): Promise<FaultRuleRow[]> {
    return await this.rules.where("org = ?", [org]);
  }

  async take(org: string, scope: FaultScope, target: string, details: FiredDetails): Promise<FaultRuleRow | undefined> {
    const matching = "org = ? AND scope = ? AND (target = ? OR target = '*')";
    // Most requests meet no rule: that is found out before a transaction is opened, from the replica's cache of
    // the organization's armed rules (store/read-cache.ts).
    const armed = (await this.store.cached("fault_rule", org, async () => await this.armed(org))) ?? [];
    if (!armed.some((rule) => rule.scope === scope && (rule.target === target || rule.target === "*")))
      return undefined;
    return await this.store.transaction(async () => {
      // Read again inside the transaction: another replica may have fired the rule's last time meanwhile.
      const rule = await this.rules.first(matching, org, scope, target);
      if (!rule) return undefined;
      rule.remaining -= 1;
      if (rule.remaining > 0) await this.rules.put(rule);
      else await this.rules.delete(rule.id);
      await this.store.wrote("fault_rule", org);
      await this.record(org, scope, rule.fault, "plan", rule.id, details);
      return rule;
    });
  }

  async recordChaos(org: string, scope: FaultScope, fault: FaultKind, details: FiredDetails): Promise<FiredFaultRow> {
    return await this.store.transaction(async () => await this.record(org, scope, fault, "chaos", null, details));
  }

  async fired(org: string, limit: number): Promise<FiredSummary> {
    const table = this.firedFaults;
    const byFault: Partial<Record<FaultKind, number>> = {};
    for (const fault of [...REQUEST_FAULTS, ...WEBHOOK_FAULTS]) {
      const n = await table.count("org = ? AND fault = ?", org, fault);
      if (n > 0) byFault[fault] = n;
    }
    return {
      total: await table.count("org = ?", org),
      byFault,
      recent: await table.where("org = ?", [org], "seq DESC", limit),
    };
  }

  async clear(org: string): Promise<{ armed: number; fired: number }> {
    return await this.store.transaction(async () => {
      const armed = await this.rules.deleteWhere("org = ?", org);
      await this.store.wrote("fault_rule", org);
      return { armed, fired: await this.firedFaults.deleteWhere("org = ?", org) };
    });
  }

  private async record(
    org: string,
    scope: FaultScope,
    fault: FaultKind,
    source: FiredFaultRow["source"],
    ruleId: string | null,
    details: FiredDetails,
  ): Promise<FiredFaultRow> {
    const row: FiredFaultRow = {
      id: randomUUID(),
      org,
      created_at: new Date().toISOString(),
      scope,
      fault,
      source,
      rule_id: ruleId,
      ...details,
    };
    await this.firedFaults.put(row);
    // The oldest past the bound go in the same transaction: the log never holds more than MAX_FIRED_KEPT. The
    // organization's rows are at most MAX_FIRED_KEPT + 1 here, so finding the cut reads a bounded few (the
    // schema of existing files is left as it was: no index is added for it).
    await this.firedFaults.deleteWhere(
      `org = ? AND seq <= (SELECT seq FROM ${this.firedFaults.kind} WHERE org = ? ORDER BY seq DESC LIMIT 1 OFFSET ${MAX_FIRED_KEPT})`,
      org,
      org,
    );
    return row;
  }
}

function tooManyRules(): ApiError {
  return new ApiError(400, "INPUT_MALFORMED", `At most ${MAX_ARMED_RULES} fault rules are armed at once`, {
    non_field_errors: [
      `This organization has ${MAX_ARMED_RULES} rules armed: let them fire, or clear them with DELETE /_sandbox/faults, before arming more.`,
    ],
  });
}
