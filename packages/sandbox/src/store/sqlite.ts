// node:sqlite is loaded when a database is opened, not when the package is imported: the package's other parts
// (the contract checker behind `exchange-kit proxy`) run on Node 20, which has no node:sqlite.
import { createRequire } from "node:module";

type Sqlite = typeof import("node:sqlite");

let loaded: Sqlite | undefined;

/**
 * The node:sqlite module, loaded on first use.
 *
 * @example
 * const db = new (sqlite().DatabaseSync)(":memory:");
 */
export function sqlite(): Sqlite {
  loaded ??= createRequire(import.meta.url)("node:sqlite") as Sqlite;
  return loaded;
}
