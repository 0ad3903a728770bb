// Valid calls built from the spec's own examples, for every operation.
import { firstExampleOf, type SpecOperation } from "./spec.js";

export interface ExampleCall {
  /** Positional arguments for the resource method: path parameters, body, options. */
  readonly args: unknown[];
  readonly pathValues: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
}

function exampleOfParameter(parameter: any): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const first = parameter.examples && Object.values<any>(parameter.examples)[0];
  if (first && "value" in first) return first.value;
  return parameter.schema?.examples?.[0] ?? parameter.schema?.default;
}

/** The arguments of a valid call of `op`, from the spec's examples (path order, then body, then query). */
export function exampleCall(op: SpecOperation): ExampleCall {
  const parameters: any[] = op.operation.parameters ?? [];
  const pathValues: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const p of parameters) {
    const value = exampleOfParameter(p);
    if (p.in === "path") pathValues[p.name] = value;
    if (p.in === "query" && value !== undefined) query[p.name] = value;
  }
  const order = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const body = firstExampleOf(op.operation.requestBody?.content?.["application/json"]);
  const args: unknown[] = order.map((name) => pathValues[name]);
  if (op.operation.requestBody) args.push(body);
  args.push({ ...query });
  return { args, pathValues, query, body };
}
