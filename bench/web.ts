// The web interface in Chromium against the built server (which serves the page
// from its own dist/web): the library screen's first rows after a navigation,
// and the search results after a keystroke (the suggestions, then the table,
// which the page filters 40 ms after the last keystroke). Each is printed
// beside the bare API request behind it, timed the same way in the same run.
// Skipped, saying so, without Debian's Chromium (apt-get install -y chromium).
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BenchRow, HttpBenchContext } from './http'
import { median } from './lib/load'
import type { ServerProcess } from './lib/server'

const CHROMIUM = process.env.COMPLIB_CHROMIUM ?? '/usr/bin/chromium'

// What the waitForFunction callbacks use of the page (they run there; checked here without the DOM lib).
type PageNode = { textContent: string | null }
declare const document: { querySelector(selector: string): PageNode | null; querySelectorAll(selector: string): Iterable<PageNode> }

export async function benchWeb(ctx: HttpBenchContext, server: ServerProcess): Promise<BenchRow[]> {
  if (!existsSync(CHROMIUM)) {
    ctx.log(`web: skipped, no Chromium at ${CHROMIUM}`)
    return []
  }
  // playwright-core is the web package's (its e2e tests'); Playwright's own browser download is never used.
  const { chromium } = createRequire(new URL('../packages/web/package.json', import.meta.url))('playwright-core') as typeof import('../packages/web/node_modules/playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  const times = ctx.quick ? 3 : 7
  const rounds = await _searchRounds(server.url, times)
  const firstRows: number[] = []
  const suggest: number[] = []
  const table: number[] = []
  try {
    for (let i = 0; i < times; i++) {
      // A fresh context each time: no cached page, script or data.
      const context = await browser.newContext({ viewport: { width: 1360, height: 860 } })
      const page = await context.newPage()
      const t0 = performance.now()
      await page.goto(`${server.url}/`, { waitUntil: 'commit' })
      await page.waitForSelector('[role=row][aria-rowindex="2"] a', { timeout: 30_000 })
      firstRows.push(performance.now() - t0)

      // The last keystroke, timed: until the suggestions are the server's for the whole word,
      // then until the count above the table is (both differ from what the word without it gave).
      const { word, count, labels } = rounds[i % rounds.length]!
      const search = page.getByRole('combobox', { name: 'Search' })
      await search.focus()
      await page.keyboard.type(word.slice(0, -1))
      // Suggestions for the first letters, before the timed keystroke. A round where they never
      // show is reported and left out like the one below (seen twice in a row on 2026-11-26 on the
      // built server, then not again; cause not found: the e2e tests check the suggestions).
      const started = await page.waitForSelector('[role=listbox]:not([hidden]) [role=option]', { timeout: 30_000 }).then(() => true, () => false)
      if (!started) {
        ctx.log(`web: round ${i + 1}: no suggestions for ${JSON.stringify(word.slice(0, -1))} after 30 s; round left out`)
        await context.close()
        continue
      }
      await page.waitForTimeout(500) // past the debounce: the table filtered by the first letters too
      const t1 = performance.now()
      await page.keyboard.press(word.at(-1)!)
      // A round whose suggestions never became the whole word's is reported and left out, not
      // fatal: seen on a loaded machine, cause not found yet; the e2e tests check the suggestions.
      const shown = await page
        .waitForFunction((want: string) => [...document.querySelectorAll('[role=option] > span:first-child')].map((o) => o.textContent).join('|') === want, labels, { polling: 'raf', timeout: 30_000 })
        .then(() => true, () => false)
      if (!shown) {
        ctx.log(`web: round ${i + 1}: the suggestions for ${JSON.stringify(word)} were not the server's after 30 s; round left out`)
        await context.close()
        continue
      }
      suggest.push(performance.now() - t1)
      await page.waitForFunction((want: string) => document.querySelector('.library .screen-head p')?.textContent?.startsWith(want) === true, `${count.toLocaleString('en-US')} ${count === 1 ? 'component' : 'components'}`, { polling: 'raf', timeout: 30_000 })
      table.push(performance.now() - t1)
      await context.close()
    }
  } finally {
    await browser.close()
  }
  // The bare requests behind each: the first page the library asks for, one suggest, one filtered page.
  const api = async (path: string) => {
    const samples: number[] = []
    for (let i = 0; i < times; i++) {
      const t = performance.now()
      await (await fetch(`${server.url}${path}`)).arrayBuffer()
      samples.push(performance.now() - t)
    }
    return median(samples)
  }
  const pageApi = await api('/api/components?limit=100&sort=name')
  const suggestApi = await api(`/api/suggest?entity=components&q=${encodeURIComponent(rounds[0]!.word)}&limit=8`)
  const tableApi = await api(`/api/components?limit=100&sort=name&q=${encodeURIComponent(rounds[0]!.word)}`)
  const ms = (v: number) => `${v.toFixed(0)} ms`
  const show = (list: number[]) => (list.length === 0 ? 'not measured: every round left out' : `${ms(median(list))} (median of ${list.length}: ${list.map((v) => v.toFixed(0)).join(', ')})`)
  ctx.log(`web: first rows ${firstRows.map(ms).join(', ')}; suggestions ${suggest.map(ms).join(', ')}; table ${table.map(ms).join(', ')}`)
  const n = ctx.size.toLocaleString('en')
  return [
    { scenario: `web: library screen, navigation to first rows, ${n} components (Chromium, fresh context)`, subject: show(firstRows), value: median(firstRows), baseline: `${ms(pageApi)} GET of the first page alone`, ratio: (median(firstRows) / pageApi).toFixed(1), target: `≤ 1000 ms${median(firstRows) > 1000 ? ' (missed)' : ''}` },
    { scenario: `web: search, keystroke to suggestions shown, ${n} components`, subject: show(suggest), value: median(suggest), baseline: `${ms(suggestApi)} GET /api/suggest alone`, ratio: (median(suggest) / suggestApi).toFixed(1), target: `≤ 150 ms${median(suggest) > 150 ? ' (missed)' : ''}` },
    { scenario: `web: search, keystroke to the table filtered (after the page's 40 ms debounce), ${n} components`, subject: show(table), value: median(table), baseline: `${ms(tableApi)} GET of the filtered page alone`, ratio: (median(table) / tableApi).toFixed(1), target: `≤ 150 ms${median(table) > 150 ? ' (missed)' : ''}` },
  ]
}

/**
 * Words whose last letter changes both the suggestions and the count (IPNs of
 * the generated library: `RES-00001` narrows `RES-0000`), each with what the
 * server answers for it: the timed keystroke must show a change, not what was there.
 */
async function _searchRounds(base: string, times: number): Promise<Array<{ word: string; count: number; labels: string }>> {
  const answer = async (q: string) => {
    const res = await fetch(`${base}/api/components?limit=1&q=${encodeURIComponent(q)}`)
    await res.arrayBuffer()
    const suggestions = (await (await fetch(`${base}/api/suggest?entity=components&q=${encodeURIComponent(q)}&limit=8`)).json()) as Array<{ label: string }>
    return { count: Number(res.headers.get('x-total-count')), labels: suggestions.map((x) => x.label).join('|') }
  }
  const rounds = []
  for (const prefix of ['RES', 'CAP', 'IND', 'IC']) {
    for (let d = 1; d <= 9 && rounds.length < times; d++) {
      const word = `${prefix}-0000${d}`
      const [before, after] = [await answer(word.slice(0, -1)), await answer(word)]
      if (after.count > 0 && after.count !== before.count && after.labels !== before.labels) rounds.push({ word, ...after })
    }
  }
  if (rounds.length === 0) throw new Error('bench: web: no IPN prefix narrows the search in this library')
  return rounds
}
