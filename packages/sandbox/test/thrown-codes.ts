// Which error codes a handler can throw, read from the sources with the TypeScript checker: every
// `new ApiError(status, code, ...)` reachable from the handler through the functions of src/ it calls, with the
// values the call sites pass for parameters (a `prefix` of "PAYIN", the `codes` object of findCustomer, a default
// parameter) folded in. The per-operation list of codes is only known at run time (the spec), so this is how the
// sandbox's code is held to it: test/err-codes.test.ts compares the two for every operation.
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const srcDir = join(packageDir, "src");
const apiErrorFile = join(srcDir, "domain", "api-error.ts");

/** One `new ApiError(...)` a handler can reach, with one of the codes it can carry there. */
export interface ThrownCode {
  status: string;
  code: string;
  /** The file (relative to src/) and line of the `new ApiError`. */
  at: string;
}

/** What the analysis knows of a value: the strings it can be, an object's members, or nothing (undefined). */
type Value = { strings: ReadonlySet<string> } | { members: ReadonlyMap<string, Value> } | undefined;

/** What each parameter of the function being walked is known to be, from its call site. */
type Env = ReadonlyMap<ts.Symbol, Value>;

type FunctionNode = ts.FunctionLikeDeclaration & { body: ts.Node };

export interface ThrownCodes {
  /** The codes a function (a handler) can throw, through every function of src/ it calls. */
  of(declaration: ts.Node): { thrown: ThrownCode[]; unreadable: string[] };
  /** The declaration of each property of an object literal bound to `name` in `file` (e.g. routes.ts's handler table). */
  tableEntries(file: string, name: string): Map<string, ts.Node>;
}

function strings(value: Value): ReadonlySet<string> | undefined {
  return value && "strings" in value ? value.strings : undefined;
}

function union(a: Value, b: Value): Value {
  const x = strings(a);
  const y = strings(b);
  return x && y ? { strings: new Set([...x, ...y]) } : undefined;
}

function serialize(value: Value): unknown {
  if (value === undefined) return null;
  if ("strings" in value) return [...value.strings].sort();
  return [...value.members].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, serialize(v)]);
}

function hasBody(node: ts.Node | undefined): node is FunctionNode {
  return node !== undefined && ts.isFunctionLike(node) && "body" in node && node.body !== undefined;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** The analysis over the sandbox's sources, compiled with its own tsconfig. */
export function thrownCodes(): ThrownCodes {
  const configPath = join(packageDir, "tsconfig.json");
  const config = ts.parseJsonConfigFileContent(
    ts.readConfigFile(configPath, ts.sys.readFile).config,
    ts.sys,
    packageDir,
  );
  const program = ts.createProgram([join(srcDir, "routes.ts")], config.options);
  const checker = program.getTypeChecker();
  const inSrc = (node: ts.Node) => node.getSourceFile().fileName.startsWith(`${srcDir}/`);
  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    return `${relative(srcDir, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };

  const unalias = (symbol: ts.Symbol | undefined) =>
    symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;

  function symbolOf(expression: ts.Expression): ts.Symbol | undefined {
    return unalias(
      checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expression) ? expression.name : expression),
    );
  }

  function declarationOf(symbol: ts.Symbol | undefined): ts.Node | undefined {
    const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    if (declaration && ts.isVariableDeclaration(declaration)) return declaration.initializer;
    if (declaration && ts.isPropertyAssignment(declaration)) return declaration.initializer;
    return declaration;
  }

  const isApiError = (symbol: ts.Symbol | undefined) => {
    const declaration = symbol?.valueDeclaration;
    return (
      symbol?.name === "ApiError" &&
      declaration !== undefined &&
      ts.isClassDeclaration(declaration) &&
      declaration.getSourceFile().fileName === apiErrorFile
    );
  };

  /** A literal type, or a union of them, as strings: what the checker knows when the call sites do not say. */
  function fromType(expression: ts.Expression): Value {
    const type = checker.getTypeAtLocation(expression);
    const parts = type.isUnion() ? type.types : [type];
    const out = new Set<string>();
    for (const part of parts) {
      if (part.isStringLiteral() || part.isNumberLiteral()) out.add(String(part.value));
      else return undefined;
    }
    return { strings: out };
  }

  function evaluate(node: ts.Expression, env: Env): Value {
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isNonNullExpression(node)
    )
      return evaluate(node.expression, env);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isNumericLiteral(node))
      return { strings: new Set([node.text]) };
    if (ts.isConditionalExpression(node)) return union(evaluate(node.whenTrue, env), evaluate(node.whenFalse, env));
    if (ts.isTemplateExpression(node)) return template(node, env);
    if (ts.isObjectLiteralExpression(node)) return objectValue(node, env);
    if (ts.isIdentifier(node)) return identifierValue(node, env);
    if (ts.isPropertyAccessExpression(node)) {
      const object = evaluate(node.expression, env);
      if (object && "members" in object) return object.members.get(node.name.text);
    }
    return fromType(node);
  }

  function template(node: ts.TemplateExpression, env: Env): Value {
    let out = new Set([node.head.text]);
    for (const span of node.templateSpans) {
      const values = strings(evaluate(span.expression, env));
      if (!values) return undefined;
      out = new Set([...out].flatMap((prefix) => [...values].map((v) => `${prefix}${v}${span.literal.text}`)));
    }
    return { strings: out };
  }

  function objectValue(node: ts.ObjectLiteralExpression, env: Env): Value {
    const members = new Map<string, Value>();
    for (const property of node.properties) {
      if (ts.isPropertyAssignment(property)) {
        const name = propertyName(property.name);
        if (name !== undefined) members.set(name, evaluate(property.initializer, env));
      } else if (ts.isShorthandPropertyAssignment(property)) {
        members.set(property.name.text, evaluate(property.name, env));
      }
    }
    return { members };
  }

  function identifierValue(node: ts.Identifier, env: Env): Value {
    const symbol = checker.getSymbolAtLocation(node);
    if (symbol && env.has(symbol)) return env.get(symbol);
    const declaration = symbol?.valueDeclaration;
    const isConst =
      declaration !== undefined &&
      ts.isVariableDeclaration(declaration) &&
      (ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const) !== 0;
    if (isConst && declaration.initializer) return evaluate(declaration.initializer, env);
    return fromType(node);
  }

  /** What the callee's parameters are at this call: the arguments, or the parameters' defaults. */
  function bind(callee: FunctionNode, args: readonly ts.Expression[], env: Env): Env {
    const bound = new Map<ts.Symbol, Value>();
    callee.parameters.forEach((parameter, i) => {
      const symbol = ts.isIdentifier(parameter.name) ? checker.getSymbolAtLocation(parameter.name) : undefined;
      if (!symbol) return;
      const argument = args[i];
      if (argument && !ts.isSpreadElement(argument)) bound.set(symbol, evaluate(argument, env));
      else if (!argument && parameter.initializer) bound.set(symbol, evaluate(parameter.initializer, bound));
    });
    return bound;
  }

  const done = new Map<string, { thrown: ThrownCode[]; unreadable: string[] }>();
  const ids = new Map<ts.Node, number>();

  function walk(fn: FunctionNode, env: Env): { thrown: ThrownCode[]; unreadable: string[] } {
    if (!ids.has(fn)) ids.set(fn, ids.size);
    const key = `${ids.get(fn)} ${JSON.stringify([...env].map(([s, v]) => [s.name, serialize(v)]))}`;
    const known = done.get(key);
    if (known) return known;
    const result = { thrown: [] as ThrownCode[], unreadable: [] as string[] };
    done.set(key, result); // a recursive call sees what is known so far
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && isApiError(symbolOf(node.expression))) record(node, env, result);
      else if (ts.isCallExpression(node) || ts.isNewExpression(node)) follow(node, env, result);
      else if (ts.isIdentifier(node) && !isCallee(node)) reference(node, result);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn.body, visit);
    return result;
  }

  function record(node: ts.NewExpression, env: Env, into: { thrown: ThrownCode[]; unreadable: string[] }): void {
    const [statusArg, codeArg] = node.arguments ?? [];
    const statuses = statusArg && strings(evaluate(statusArg, env));
    const codes = codeArg && strings(evaluate(codeArg, env));
    if (!statuses || !codes) {
      into.unreadable.push(`${where(node)}: ${node.getText()}`);
      return;
    }
    for (const status of statuses) for (const code of codes) into.thrown.push({ status, code, at: where(node) });
  }

  function merge(into: { thrown: ThrownCode[]; unreadable: string[] }, from: typeof into): void {
    if (from === into) return;
    into.thrown.push(...from.thrown);
    into.unreadable.push(...from.unreadable);
  }

  function follow(node: ts.CallExpression | ts.NewExpression, env: Env, into: Parameters<typeof merge>[0]): void {
    const callee = declarationOf(symbolOf(node.expression));
    const target = callee && ts.isClassDeclaration(callee) ? callee.members.find(ts.isConstructorDeclaration) : callee;
    if (!hasBody(target) || !inSrc(target)) return;
    const found = walk(target, bind(target, node.arguments ?? [], env));
    // A code passed to an error factory (badRequest, missingFields) is the call's: that is where it is chosen.
    const factory = target.getSourceFile().fileName === apiErrorFile;
    merge(into, factory ? { ...found, thrown: found.thrown.map((t) => ({ ...t, at: where(node) })) } : found);
  }

  /** A function of src/ passed as a value (`rows.map(bankView)`): walked with nothing known of its parameters. */
  function reference(node: ts.Identifier, into: Parameters<typeof merge>[0]): void {
    if (ts.isPropertyAccessExpression(node.parent) && node.parent.name === node && isCallee(node.parent)) return;
    const target = declarationOf(symbolOf(node));
    if (hasBody(target) && inSrc(target) && !isDeclarationName(node)) merge(into, walk(target, new Map()));
  }

  return {
    of(declaration) {
      if (!hasBody(declaration)) throw new Error(`Not a function with a body: ${where(declaration)}`);
      const { thrown, unreadable } = walk(declaration, new Map());
      const seen = new Set<string>();
      const unique = thrown.filter((t) => {
        const id = `${t.status} ${t.code} ${t.at}`;
        return !seen.has(id) && seen.add(id) !== undefined;
      });
      return { thrown: unique, unreadable: [...new Set(unreadable)] };
    },
    tableEntries(file, name) {
      const source = program.getSourceFile(join(srcDir, file));
      if (!source) throw new Error(`No source file ${file}`);
      const entries = new Map<string, ts.Node>();
      const visit = (node: ts.Node): void => {
        if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) {
          const table = node.initializer;
          if (!table || !ts.isObjectLiteralExpression(table)) throw new Error(`${name} is not an object literal`);
          for (const property of table.properties) {
            const key = ts.isPropertyAssignment(property) ? propertyName(property.name) : property.name?.getText();
            const target = declarationOf(
              ts.isPropertyAssignment(property)
                ? symbolOf(property.initializer)
                : ts.isShorthandPropertyAssignment(property)
                  ? unalias(checker.getShorthandAssignmentValueSymbol(property))
                  : undefined,
            );
            if (key !== undefined && target) entries.set(key, target);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      return entries;
    },
  };
}

function isCallee(node: ts.Node): boolean {
  const parent = node.parent;
  return (ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === node;
}

function isDeclarationName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (ts.isFunctionDeclaration(parent) || ts.isVariableDeclaration(parent)) && parent.name === node;
}
