import { describe, expect, it } from 'vitest'
import { ByteStatements, loadSqlEngine } from './sqlite-bytes'
import { StatementCache } from './sql-executor'

describe('reading texts as bytes', async () => {
  const engine = await loadSqlEngine()
  const db = new engine.SQL.Database()
  db.run(`CREATE TABLE t (id TEXT PRIMARY KEY, body TEXT, n INTEGER)`)
  db.run(`INSERT INTO t VALUES ('a', 'Résistance 4,7 kΩ 🙂', 7), ('b', NULL, 8), ('c', '', -3), ('d', 'x' || char(0) || 'y', 2.5)`)
  const fast = ByteStatements.create(engine, db)
  const slow = new StatementCache(db)
  const text = (bytes: Uint8Array | null | undefined) => (bytes ? new TextDecoder().decode(bytes) : bytes)

  it('captures the wasm memory, so the server takes the fast path', () => {
    expect(engine.memory).toBeDefined()
    expect(fast).not.toBeNull()
  })

  for (const [name, read] of [
    ['the fast path', (sql: string, params: Array<string | number>) => fast!.firstRow(sql, params)],
    ['the fallback', (sql: string, params: Array<string | number>) => slow.bytesRow(sql, params)],
  ] as const) {
    it(`${name}: gives a text's UTF-8 bytes and the other columns as numbers`, () => {
      const row = read('SELECT body, n, length(body) FROM t WHERE id = ?', ['a'])!
      expect(text(row.bytes)).toBe('Résistance 4,7 kΩ 🙂')
      expect(row.numbers).toEqual([7, 19])
      expect(Buffer.from(row.bytes!).equals(Buffer.from('Résistance 4,7 kΩ 🙂', 'utf8'))).toBe(true)
    })

    it(`${name}: tells NULL, an empty text and no row apart, and keeps a NUL inside a text`, () => {
      expect(read('SELECT body, n FROM t WHERE id = ?', ['b'])).toEqual({ bytes: null, numbers: [8] })
      expect(text(read('SELECT body, n FROM t WHERE id = ?', ['c'])!.bytes)).toBe('')
      expect(read('SELECT body FROM t WHERE id = ?', ['zzz'])).toBeUndefined()
      const d = read('SELECT body, n FROM t WHERE id = ?', ['d'])!
      expect([text(d.bytes), d.numbers]).toEqual(['x\u0000y', [2.5]])
    })

    it(`${name}: binds numbers, integral or not, and reuses its statement`, () => {
      for (let i = 0; i < 3; i++) expect(text(read('SELECT group_concat(id, \',\' ORDER BY id) FROM t WHERE n > ?', [2.4])!.bytes)).toBe('a,b,d')
      expect(text(read('SELECT id FROM t WHERE n = ?', [-3])!.bytes)).toBe('c')
    })
  }

  for (const [name, array] of [
    ['the fast path', (sql: string, params: Array<string | number | null>, max: number) => fast!.jsonArray(sql, params, max)],
    ['the fallback', (sql: string, params: Array<string | number | null>, max: number) => slow.jsonArray(sql, params, max)],
  ] as const) {
    const views = `SELECT '{"id":' || json_quote(id) || ',"body":' || json_quote(body) || '}', id, n FROM t WHERE n > ? ORDER BY id LIMIT ?`
    const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown

    it(`${name}: joins the first max texts into one JSON array, and tells whether more rows followed`, () => {
      const page = array(views, [0, 3], 2)
      expect(parse(page.json)).toEqual([
        { id: 'a', body: 'Résistance 4,7 kΩ 🙂' },
        { id: 'b', body: null },
      ])
      expect(page).toMatchObject({ rows: 3, missing: 0, atMax: ['b', '8'] })
      const all = array(views, [-10, 10], 10)
      expect((parse(all.json) as Array<{ id: string }>).map((v) => v.id)).toEqual(['a', 'b', 'c', 'd'])
      expect(all).toMatchObject({ rows: 4, missing: 0, atMax: null })
      expect(parse(array(views, [100, 10], 10).json)).toEqual([])
    })

    it(`${name}: leaves NULL and empty texts out and counts them`, () => {
      const page = array('SELECT body, id FROM t ORDER BY id', [], 3)
      expect(new TextDecoder().decode(page.json)).toBe('[Résistance 4,7 kΩ 🙂]')
      expect(page).toMatchObject({ rows: 4, missing: 2, atMax: ['c'] })
    })

    it(`${name}: binds null as NULL, and grows past its first guess`, () => {
      expect(array('SELECT body FROM t WHERE body IS ?', [null], 5)).toMatchObject({ rows: 1, missing: 1 })
      // The first row sizes the buffer; a later, much longer one makes it grow.
      const long = array(`SELECT json_quote(CASE WHEN value = 3 THEN printf('%.200000c', 'x') ELSE 'y' END) FROM json_each('[1,2,3,4]')`, [], 4)
      expect((parse(long.json) as string[]).map((v) => v.length)).toEqual([1, 1, 200000, 1])
    })
  }

  it('binds booleans and undefined as the other executor does', () => {
    for (const read of [fast!.firstRow.bind(fast), slow.bytesRow.bind(slow)]) {
      expect(read("SELECT ? || '', ? IS NULL, ?", [true, undefined, false])).toEqual({ bytes: Buffer.from('1'), numbers: [1, 0] })
    }
  })

  it('names the SQL error, and a parameter it cannot bind', () => {
    expect(() => fast!.firstRow('SELECT nope FROM t', [])).toThrow(/no such column: nope/)
    expect(() => fast!.firstRow('SELECT body FROM t WHERE id = ?', [new Uint8Array([1])])).toThrow(TypeError)
    // The statement was reset: it still answers.
    expect(text(fast!.firstRow('SELECT body FROM t WHERE id = ?', ['a'])!.bytes)).toBe('Résistance 4,7 kΩ 🙂')
  })
})
