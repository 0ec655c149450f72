import { describe, expect, it } from 'vitest'
import { openSqlite, sqliteDriver } from './driver'

const nodeMajor = Number(process.versions.node.split('.')[0])

describe('the SQLite driver for this Node', () => {
  // better-sqlite3 12 aborts Node 24 when V8 collects a statement; 13 does not load on Node 20.
  it(`is better-sqlite3 ${nodeMajor >= 22 ? 13 : 12} on Node ${nodeMajor}`, () => {
    expect(Number(sqliteDriver().version.split('.')[0])).toBe(nodeMajor >= 22 ? 13 : 12)
  })

  it('opens a database that answers, and a worker thread can load the same build by path', () => {
    const db = openSqlite(':memory:')
    expect(db.prepare('SELECT 1 + 1 AS two').get()).toEqual({ two: 2 })
    db.close()
    expect(sqliteDriver().modulePath).toMatch(/better-sqlite3[\\/]lib[\\/]index\.js$/)
  })
})
