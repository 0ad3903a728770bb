// The fault plan's tables in the sandbox's database: armed rules, looked up per request by organization, scope
// and target, and the faults that fired, counted per kind. They are created when the store opens, beside the
// records' schema rather than in it (as the request log's table is): a file of an earlier version gains them at
// its first start, and keeps the schema version it had.
import type { TableSpec } from "../records/table-spec.js";
import { tableSql } from "../store/schema.js";
import type { FaultRuleRow, FiredFaultRow } from "./fault-records.js";

export const FAULT_RULE_TABLE: TableSpec<FaultRuleRow> = {
  kind: "fault_rule",
  columns: { scope: (r) => r.scope, target: (r) => r.target },
  indexes: ["org, scope, target"],
};

export const FAULT_FIRED_TABLE: TableSpec<FiredFaultRow> = {
  kind: "fault_fired",
  columns: { fault: (r) => r.fault },
  indexes: ["org, fault"],
};

export const FAULT_TABLES_SQL = [FAULT_RULE_TABLE, FAULT_FIRED_TABLE]
  .map((spec) => tableSql(spec as TableSpec<never>))
  .join("\n");
