import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

/**
 * Which build of better-sqlite3 this Node.js runs (decision 0002):
 * - Node 22 and later: better-sqlite3 13 (dependency alias `better-sqlite3-napi`).
 *   It is built on Node-API and ships prebuilt binaries, so nothing compiles.
 *   Version 12 must not run on Node 24: there its statements register
 *   environment cleanup hooks through `node::ObjectWrap`, and collecting one
 *   aborts the process (`Assertion failed: (env) != nullptr`).
 * - Node 20: better-sqlite3 12, compiled on install. 13 does not load there
 *   (it needs Node 22's Node-API).
 * 13 is an optional dependency: a package manager may leave it out on Node 20.
 */
export interface SqliteDriver {
  /** The `Database` class. */
  Database: typeof BetterSqlite3
  /** The module's resolved path, for a worker thread to load the same build. */
  modulePath: string
  /** `better-sqlite3` package version, e.g. `13.2.0`. */
  version: string
}

const NODE_API_ALIAS = 'better-sqlite3-napi'
const CLASSIC = 'better-sqlite3'

let loaded: SqliteDriver | undefined

/** The driver for this process's Node.js, loaded once. */
export function sqliteDriver(): SqliteDriver {
  loaded ??= loadDriver(Number(process.versions.node.split('.')[0]))
  return loaded
}

function loadDriver(nodeMajor: number): SqliteDriver {
  const require = createRequire(import.meta.url)
  const load = (name: string): SqliteDriver => {
    const modulePath = require.resolve(name)
    const { version } = require(`${name}/package.json`) as { version: string }
    return { Database: require(modulePath) as typeof BetterSqlite3, modulePath, version }
  }
  if (nodeMajor < 22) return load(CLASSIC)
  try {
    return load(NODE_API_ALIAS)
  } catch (error) {
    if (nodeMajor >= 24 || !isMissing(error)) {
      throw new Error(
        `[storage] complib needs better-sqlite3 13 (installed as "${NODE_API_ALIAS}") on Node ${process.versions.node}, and it did not load: ` +
          `${(error as Error).message}. Install the dependencies again with this Node (npm install, or pnpm install).`,
      )
    }
    return load(CLASSIC)
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'MODULE_NOT_FOUND'
}

/** Opens a database file (or `:memory:`) with this Node's driver. */
export function openSqlite(path: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  const { Database } = sqliteDriver()
  return new Database(path, options)
}
