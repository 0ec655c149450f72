import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordStatements } from '../../../test/sqlite-statements'
import { createSqliteStorage, type SqliteStorage } from './storage'

// MPN suggestions by substring read the 3-character windows of part numbers
// alone (mpn_grams, schema.ts). Through the windows of names, ipns and part
// numbers together, a query found in many names ("LM358") had every such
// component's part numbers tested to find none: 18 ms at 100,000 parts.
let storage: SqliteStorage

beforeEach(async () => {
  storage = await createSqliteStorage()
})
afterEach(async () => await storage.close())

const partNumbers = async (q: string) => (await storage.search.suggest('mpns', q, 10)).map((s) => s.label)
const documents = () => storage.database.db.prepare('SELECT rowid FROM mpn_grams ORDER BY rowid').all().length

describe('the part numbers\' own windows (mpn_grams)', () => {
  it('follow every change of a component\'s part numbers, and only its part numbers', async () => {
    await storage.components.create({ name: 'Op amp like the LM358' })
    const c = await storage.components.create({ name: 'Dual op amp', mpns: [{ manufacturer: 'TI', partNumber: 'LM358DR' }] })
    expect(documents()).toBe(1)
    expect(await partNumbers('m358')).toEqual(['LM358DR'])

    await storage.components.update(c.id, { mpns: [{ manufacturer: 'TI', partNumber: 'TL072CP' }] })
    expect(await partNumbers('m358')).toEqual([])
    expect(await partNumbers('072c')).toEqual(['TL072CP'])
    // A change that leaves the part numbers alone keeps the document as it is.
    await storage.components.update(c.id, { name: 'JFET op amp' })
    expect(await partNumbers('072c')).toEqual(['TL072CP'])

    await storage.components.update(c.id, { mpns: [] })
    expect(documents()).toBe(0)
    expect(await partNumbers('072c')).toEqual([])

    await storage.components.update(c.id, { mpns: [{ manufacturer: 'TI', partNumber: 'NE5532P' }] })
    await storage.components.delete(c.id)
    expect(await partNumbers('e553')).toEqual([])
    await storage.components.purge(c.id)
    expect(documents()).toBe(0)
  })

  it('answer the substring tier of MPN suggestions instead of the windows of names', async () => {
    for (let i = 0; i < 30; i++) await storage.components.create({ name: `LM358 clone ${i}`, mpns: [{ manufacturer: 'Acme', partNumber: `AC-${i}` }] })
    await storage.components.create({ name: 'Quad op amp', mpns: [{ manufacturer: 'TI', partNumber: 'XLM358Q' }] })
    const log = recordStatements(storage.database.db)
    expect(await partNumbers('LM358')).toEqual(['XLM358Q'])
    log.stop()
    const substring = log.statements.filter((sql) => /grams MATCH/.test(sql))
    expect(substring).toHaveLength(1)
    expect(substring[0]).toContain('mpn_grams MATCH')
  })
})
