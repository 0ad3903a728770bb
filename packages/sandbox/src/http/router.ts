// A segment trie: static segments win over parameters (so /customer/list is not read as /customer/{customer_id}),
// with backtracking when a static branch dead-ends. Lookup cost grows with path depth, not with route count.

export interface RouteMatch<T> {
  route: T;
  params: Record<string, string>;
}

export type Lookup<T> =
  | { kind: "found"; match: RouteMatch<T> }
  | { kind: "method-not-allowed"; allowed: string[] }
  | { kind: "not-found" };

interface Node<T> {
  statics: Map<string, Node<T>>;
  param: { name: string; node: Node<T> } | undefined;
  handlers: Map<string, T>;
}

function node<T>(): Node<T> {
  return { statics: new Map(), param: undefined, handlers: new Map() };
}

function split(path: string): string[] {
  return path.split("/").filter((segment) => segment.length > 0);
}

export class Router<T> {
  private readonly root: Node<T> = node();

  add(method: string, template: string, route: T): void {
    let current = this.root;
    for (const segment of split(template)) {
      const param = /^\{(.+)\}$/.exec(segment);
      if (param) {
        const name = param[1]!;
        if (current.param && current.param.name !== name) {
          throw new Error(`Conflicting parameter names {${current.param.name}} and {${name}} in ${template}`);
        }
        current.param ??= { name, node: node() };
        current = current.param.node;
      } else {
        let next = current.statics.get(segment);
        if (!next) current.statics.set(segment, (next = node()));
        current = next;
      }
    }
    if (current.handlers.has(method)) throw new Error(`Duplicate route ${method} ${template}`);
    current.handlers.set(method, route);
  }

  lookup(method: string, path: string): Lookup<T> {
    const segments = split(path);
    const params: Record<string, string> = {};
    const found = this.walk(this.root, segments, 0, params);
    if (!found) return { kind: "not-found" };
    const route = found.handlers.get(method) ?? (method === "HEAD" ? found.handlers.get("GET") : undefined);
    if (route === undefined) return { kind: "method-not-allowed", allowed: [...found.handlers.keys()] };
    return { kind: "found", match: { route, params } };
  }

  private walk(
    current: Node<T>,
    segments: string[],
    index: number,
    params: Record<string, string>,
  ): Node<T> | undefined {
    if (index === segments.length) return current.handlers.size > 0 ? current : undefined;
    const segment = segments[index]!;
    const staticNext = current.statics.get(segment);
    if (staticNext) {
      const found = this.walk(staticNext, segments, index + 1, params);
      if (found) return found;
    }
    if (current.param) {
      const found = this.walk(current.param.node, segments, index + 1, params);
      if (found) {
        params[current.param.name] = safeDecode(segment);
        return found;
      }
    }
    return undefined;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
