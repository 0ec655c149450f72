import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { recordStatements } from '../../../test/sqlite-statements'
import { ComponentListQuery } from '../../schemas/component'
import { createSqliteStorage, type SqliteStorage } from './storage'

// The plans SQLite picks for filtered lists, without statistics (nothing runs
// ANALYZE): a choice that reads every row per row, or every row per page,
// shows only at sizes no test builds, so the plan itself is checked
// (decision 0209). Pages here hold one part among 20, so a filter matching up
// to 6 (√(2 × 20)) is read from its index and sorted, one matching more
// along the sort's index.
let storage: SqliteStorage
let statements: string[]

beforeEach(async () => {
  storage = await createSqliteStorage()
  for (let i = 0; i < 20; i++) {
    await storage.components.create({
      name: `R${i}`,
      category: i % 2 ? 'Passives/Resistors' : 'Passives/Capacitors',
      tags: i < 4 ? ['smd', 'rare'] : ['smd'],
      mpns: [{ manufacturer: 'Yageo', partNumber: `RC${i}` }],
      parameters: [{ type: 'Resistance', value: `${i}k` }, { type: 'Power', value: '0.1' }],
    })
  }
  // Every statement the list runs, by its text.
  statements = recordStatements(storage.database.db).statements
})
afterEach(async () => await storage.close())

/** The plan lines of the statements prepared to list with `filters`: a first page, a later page (with the count) and its JSON. */
async function plansOf(filters: Record<string, unknown>): Promise<string[]> {
  // Statements are prepared once and kept: those of this call are the ones it prepared.
  statements.length = 0
  const first = await storage.components.listIds(ComponentListQuery.parse({ limit: '1', ...filters }))
  expect(first.nextCursor).not.toBeNull()
  await storage.components.listIds(ComponentListQuery.parse({ limit: '1', cursor: first.nextCursor, ...filters }))
  await storage.components.listJson(ComponentListQuery.parse({ limit: '1', cursor: first.nextCursor, ...filters }))
  const db = storage.database.db
  // A plan does not depend on the values bound: each `?` (none is inside a literal here) as a null.
  const plan = (sql: string) => db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...new Array<null>(sql.split('?').length - 1).fill(null)) as Array<{ detail: string }>
  return statements.filter((sql) => /components c\b/.test(sql)).flatMap((sql) => plan(sql).map((r) => r.detail))
}

describe('filtered list plans', () => {
  it('look a parameter condition up by its component, never across every value of the type', async () => {
    const plans = await plansOf({ parameter: 'Resistance:2k..15k' })
    expect(plans.filter((line) => line.includes('component_parameters_type') && line.includes('EXISTS'))).toEqual([])
    expect(plans).toContainEqual(expect.stringContaining('USING INDEX component_parameters_component (component_id=?)'))
    // The parts are listed from the values in range.
    expect(plans).toContainEqual(expect.stringContaining('SEARCH p USING INDEX component_parameters_type (type=? AND numeric>? AND numeric<?)'))
  })

  it('read a category no part lies below, sorted by name, along its index in name order; one with parts below, not', async () => {
    const leaf = await plansOf({ category: 'passives/resistors', sort: 'name' })
    expect(leaf).toContainEqual(expect.stringMatching(/SEARCH c USING INDEX components_category_folded \(category=\?\)/))
    const parent = await plansOf({ category: 'Passives', sort: 'name' })
    expect(parent.filter((line) => line.includes('(category=?)'))).toEqual([])
  })

  it('count a category as one range of its folded index', async () => {
    const plans = await plansOf({ category: 'passives/resistors', sort: 'name' })
    expect(plans).toContainEqual(expect.stringMatching(/SEARCH components USING (COVERING )?INDEX components_category_folded \(category>\? AND category<\?\)/))
  })

  it('read the page of a filter few parts match from its index, and of one many match along the sort', async () => {
    const rare = await plansOf({ tag: 'rare', sort: 'name' })
    expect(rare.filter((line) => line.includes('components_name'))).toEqual([])
    expect(rare).toContainEqual('USE TEMP B-TREE FOR ORDER BY')
    const common = await plansOf({ tag: 'smd', sort: 'name' })
    expect(common).toContainEqual(expect.stringMatching(/^SCAN c USING INDEX components_name/))
    expect(common.filter((line) => line.includes('TEMP B-TREE'))).toEqual([])
  })

  it('do not test again, on each part an index listed, the filter that index answers (decision 0212)', async () => {
    // Testing the tag again made a count of 10,001 parts 38 ms instead of 9 at a million.
    for (const filters of [{ tag: 'smd' }, { manufacturer: 'yageo' }, { parameter: 'Resistance:2k..15k' }]) {
      statements.length = 0
      await storage.components.listIds(ComponentListQuery.parse({ limit: '1', ...filters }))
      const counts = statements.filter((sql) => /SELECT count\(\*\) AS n, max\(r\) AS last, .* FROM \(SELECT c.rowid AS r FROM .* CROSS JOIN components c/.test(sql))
      expect(counts, JSON.stringify(filters)).toHaveLength(1)
      expect(counts[0], JSON.stringify(filters)).not.toContain('EXISTS')
    }
    // A second filter is tested on each part the first one's index listed.
    statements.length = 0
    await storage.components.listIds(ComponentListQuery.parse({ limit: '1', tag: 'rare', manufacturer: 'yageo' }))
    expect(statements.filter((sql) => /CROSS JOIN components c/.test(sql) && sql.includes('EXISTS (SELECT 1 FROM mpns m'))).not.toEqual([])
  })

  it('list a tag or a manufacturer from its own index', async () => {
    expect(await plansOf({ tag: 'SMD' })).toContainEqual(expect.stringContaining('SEARCH d USING COVERING INDEX component_tags_tag (tag_id=?)'))
    expect(await plansOf({ manufacturer: 'yageo' })).toContainEqual(expect.stringContaining('USING INDEX mpns_manufacturer (manufacturer_id=?)'))
  })

  it('list a status from its index of live parts; the list\'s own test of it is no index condition', async () => {
    const plans = await plansOf({ status: 'active', sort: 'name' })
    expect(plans).toContainEqual(expect.stringMatching(/^SEARCH components USING (COVERING )?INDEX components_status \(status=\?\)/))
    expect(plans.filter((line) => /^SEARCH c USING (COVERING )?INDEX components_status/.test(line))).toEqual([])
  })

  it('count a text search from the word index and test each part by its rowid, never copying every match (decision 0213)', async () => {
    // At a million parts, `rowid IN (SELECT … MATCH …)` copied the 250,010 matches of `resistor` into a temporary index per page.
    for (let i = 0; i < 10; i++) await storage.components.create({ name: `Part ${i}`, description: i < 8 ? 'thick film resistor' : 'resistors' })
    const plans = await plansOf({ q: 'resistor', sort: 'name' })
    expect(plans.filter((line) => line.includes('LIST SUBQUERY'))).toEqual([])
    // Counted from the word index, each match looked up by its rowid; the page along the sort,
    // each part looked up in the word index by its rowid.
    expect(plans).toContainEqual(expect.stringMatching(/^SCAN d VIRTUAL TABLE INDEX 0:M/))
    expect(plans).toContainEqual(expect.stringMatching(/^SCAN c USING INDEX components_name/))
    expect(plans).toContainEqual(expect.stringMatching(/^SCAN components_fts EXISTS VIRTUAL TABLE INDEX 0:=M/))
  })

  it('start from the filter whose index lists the fewest parts', async () => {
    // 10 resistors, 4 parts tagged rare: the tag drives, the category is a test of each part.
    const plans = await plansOf({ category: 'Passives/Resistors', tag: 'rare' })
    expect(plans).toContainEqual(expect.stringContaining('SEARCH d USING COVERING INDEX component_tags_tag (tag_id=?)'))
    expect(plans.filter((line) => line.includes('components_category_folded'))).toEqual([])
    const wide = await plansOf({ category: 'Passives/Resistors', tag: 'smd' })
    expect(wide).toContainEqual(expect.stringContaining('components_category_folded'))
    expect(wide.filter((line) => line.includes('component_tags_tag'))).toEqual([])
  })
})
