import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import type { BytesRow, JsonArrayRows, SqlParam } from './sql-executor'

/**
 * Reads a text column as the UTF-8 bytes SQLite holds, copied straight out of
 * the wasm memory into a Buffer. sql.js's own getters decode every text into
 * a JS string, and a response then measures and encodes that string again:
 * for the stored component views that is most of a listing's cost.
 *
 * It uses SQLite's C API as sql.js exports it (`_sqlite3_prepare_v2`, …)
 * and the wasm memory, captured when sql.js instantiates its module.
 */

/** The parts of the WebAssembly global used here (the project's Node types leave it undeclared). */
interface WasmMemory {
  readonly buffer: ArrayBuffer
}
interface WasmGlobal {
  Memory: abstract new (...args: never[]) => WasmMemory
  instantiate(bytes: Uint8Array, imports: unknown): Promise<{ instance: { exports: Record<string, unknown> }; module: unknown }>
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmGlobal }).WebAssembly

/** The sql.js module, with its wasm memory when this loader instantiated it. */
export interface SqlEngine {
  SQL: SqlJsStatic
  memory: WasmMemory | undefined
}

let engine: Promise<SqlEngine> | undefined

/** Loads sql.js once per process, keeping a handle on its wasm memory. */
export function loadSqlEngine(): Promise<SqlEngine> {
  engine ??= (async () => {
    let memory: WasmMemory | undefined
    const wasm = readFileSync(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'))
    const SQL = await initSqlJs({
      // Emscripten's hook for instantiating the module ourselves: the same instantiation, plus the memory.
      instantiateWasm(imports: unknown, done: (instance: unknown, module: unknown) => void) {
        void Wasm.instantiate(wasm, imports).then(({ instance, module }) => {
          memory = Object.values(instance.exports).find((e): e is WasmMemory => e instanceof Wasm.Memory)
          done(instance, module)
        })
        return {}
      },
    } as Parameters<typeof initSqlJs>[0])
    return { SQL, memory }
  })()
  return engine
}

const SQLITE_NULL = 5
const SQLITE_ROW = 100
const SQLITE_DONE = 101
/** Tells SQLite to copy a bound text before the call returns. */
const SQLITE_TRANSIENT = -1

/** The C functions sql.js exports on its module (see its exported_functions list). */
interface SqliteCApi {
  _sqlite3_prepare_v2(db: number, sql: number, bytes: number, stmt: number, tail: number): number
  _sqlite3_bind_text(stmt: number, index: number, text: number, bytes: number, destructor: number): number
  _sqlite3_bind_int(stmt: number, index: number, value: number): number
  _sqlite3_bind_double(stmt: number, index: number, value: number): number
  _sqlite3_clear_bindings(stmt: number): number
  _sqlite3_step(stmt: number): number
  _sqlite3_reset(stmt: number): number
  _sqlite3_finalize(stmt: number): number
  _sqlite3_column_blob(stmt: number, column: number): number
  _sqlite3_column_bytes(stmt: number, column: number): number
  _sqlite3_column_type(stmt: number, column: number): number
  _sqlite3_column_count(stmt: number): number
  _sqlite3_column_double(stmt: number, column: number): number
  _sqlite3_errmsg(db: number): number
  _malloc(bytes: number): number
  _free(pointer: number): void
}

/**
 * Prepared statements whose first column is read as bytes. Null when the
 * engine's memory was not captured (sql.js was first loaded elsewhere).
 */
export class ByteStatements {
  private readonly statements = new Map<string, number>()
  private readonly api: SqliteCApi

  private constructor(
    engine: SqlEngine,
    private readonly memory: WasmMemory,
    private readonly db: Database,
  ) {
    this.api = engine.SQL as unknown as SqliteCApi
  }

  static create(engine: SqlEngine, db: Database): ByteStatements | null {
    const api = engine.SQL as unknown as Partial<SqliteCApi>
    const pointer = (db as unknown as { db?: unknown }).db
    if (!engine.memory || typeof pointer !== 'number' || typeof api._sqlite3_column_blob !== 'function') return null
    return new ByteStatements(engine, engine.memory, db)
  }

  /** See SqlExecutor.bytesRow. */
  firstRow(sql: string, params: readonly SqlParam[]): BytesRow | undefined {
    const stmt = this._prepare(sql)
    const api = this.api
    try {
      params.forEach((value, i) => this._bind(stmt, i + 1, value))
      const rc = api._sqlite3_step(stmt)
      if (rc === SQLITE_DONE) return undefined
      if (rc !== SQLITE_ROW) throw this._error(rc)
      const length = api._sqlite3_column_bytes(stmt, 0)
      const pointer = api._sqlite3_column_blob(stmt, 0)
      let bytes: Buffer | null = null
      // A NULL has no pointer; an empty text has one and 0 bytes.
      if (pointer !== 0) {
        bytes = Buffer.allocUnsafe(length)
        bytes.set(new Uint8Array(this.memory.buffer, pointer, length))
      } else if (api._sqlite3_column_type(stmt, 0) !== SQLITE_NULL) bytes = Buffer.alloc(0)
      const numbers: number[] = []
      for (let i = 1, n = api._sqlite3_column_count(stmt); i < n; i++) numbers.push(api._sqlite3_column_double(stmt, i))
      return { bytes, numbers }
    } finally {
      api._sqlite3_reset(stmt)
      api._sqlite3_clear_bindings(stmt)
    }
  }

  /** See SqlExecutor.jsonArray. */
  jsonArray(sql: string, params: readonly SqlParam[], max: number): JsonArrayRows {
    const stmt = this._prepare(sql)
    const api = this.api
    // Sized by the first text (see below); until then, room for `[]`.
    let out: Buffer = Buffer.allocUnsafe(2)
    let length = 0
    out[length++] = 0x5b // [
    let rows = 0
    let written = 0
    let atMax: Array<string | null> | null = null
    try {
      params.forEach((value, i) => this._bind(stmt, i + 1, value))
      for (;;) {
        const rc = api._sqlite3_step(stmt)
        if (rc === SQLITE_DONE) break
        if (rc !== SQLITE_ROW) throw this._error(rc)
        if (++rows > max) break
        const pointer = api._sqlite3_column_blob(stmt, 0)
        const bytes = pointer === 0 ? 0 : api._sqlite3_column_bytes(stmt, 0)
        if (bytes > 0) {
          // Room for this text, a comma and the closing bracket. The first text sizes the array for
          // `max` texts half as long again; a longer run doubles it.
          const need = length + bytes + 2
          if (need > out.length) out = _grow(out, length, Math.max(need, written === 0 ? Math.ceil((bytes + 1) * max * 1.5) + 2 : out.length * 2))
          if (written++ > 0) out[length++] = 0x2c // ,
          out.set(new Uint8Array(this.memory.buffer, pointer, bytes), length)
          length += bytes
        }
        if (rows === max) atMax = this._texts(stmt)
      }
    } finally {
      api._sqlite3_reset(stmt)
      api._sqlite3_clear_bindings(stmt)
    }
    out[length++] = 0x5d // ]
    return { json: out.subarray(0, length), rows, missing: Math.min(rows, max) - written, atMax }
  }

  /** Finalizes every statement (before the database closes or is replaced). */
  clear(): void {
    for (const stmt of this.statements.values()) this.api._sqlite3_finalize(stmt)
    this.statements.clear()
  }

  private _prepare(sql: string): number {
    const cached = this.statements.get(sql)
    if (cached !== undefined) return cached
    const api = this.api
    const text = this._copyIn(Buffer.from(`${sql}\0`, 'utf8'))
    const out = api._malloc(4)
    try {
      const rc = api._sqlite3_prepare_v2(this._db(), text, -1, out, 0)
      if (rc !== 0) throw this._error(rc)
      const stmt = new Int32Array(this.memory.buffer, out, 1)[0]!
      this.statements.set(sql, stmt)
      return stmt
    } finally {
      api._free(text)
      api._free(out)
    }
  }

  /** Columns 1 … n of the current row as texts (null for NULL). */
  private _texts(stmt: number): Array<string | null> {
    const api = this.api
    const texts: Array<string | null> = []
    for (let i = 1, n = api._sqlite3_column_count(stmt); i < n; i++) {
      if (api._sqlite3_column_type(stmt, i) === SQLITE_NULL) texts.push(null)
      else {
        const pointer = api._sqlite3_column_blob(stmt, i)
        texts.push(pointer === 0 ? '' : Buffer.from(this.memory.buffer, pointer, api._sqlite3_column_bytes(stmt, i)).toString('utf8'))
      }
    }
    return texts
  }

  private _bind(stmt: number, index: number, value: SqlParam): void {
    const api = this.api
    let rc: number
    if (typeof value === 'string') {
      const bytes = Buffer.from(value, 'utf8')
      const pointer = this._copyIn(bytes)
      try {
        rc = api._sqlite3_bind_text(stmt, index, pointer, bytes.length, SQLITE_TRANSIENT)
      } finally {
        api._free(pointer)
      }
    } else if (value === null || value === undefined) {
      // Every parameter is NULL until bound, and clear_bindings after each use makes it so again.
      return
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      // As the other executor binds them: booleans as 1 and 0.
      const n = Number(value)
      rc = n === (n | 0) ? api._sqlite3_bind_int(stmt, index, n) : api._sqlite3_bind_double(stmt, index, n)
    } else {
      throw new TypeError(`[storage] a byte query binds strings, numbers, booleans and null, not a blob`)
    }
    if (rc !== 0) throw this._error(rc)
  }

  private _copyIn(bytes: Uint8Array): number {
    const pointer = this.api._malloc(Math.max(1, bytes.length))
    new Uint8Array(this.memory.buffer, pointer, bytes.length).set(bytes)
    return pointer
  }

  private _db(): number {
    return (this.db as unknown as { db: number }).db
  }

  private _error(rc: number): Error {
    const message = this.api._sqlite3_errmsg(this._db())
    const heap = new Uint8Array(this.memory.buffer)
    let end = message
    while (heap[end] !== 0) end++
    return new Error(`[storage] sqlite error ${rc}: ${Buffer.from(heap.subarray(message, end)).toString('utf8')}`)
  }
}

/** A larger buffer holding the first `length` bytes of `buffer`. */
function _grow(buffer: Buffer, length: number, size: number): Buffer {
  const next = Buffer.allocUnsafe(size)
  buffer.copy(next, 0, 0, length)
  return next
}
