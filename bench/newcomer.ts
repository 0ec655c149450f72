// A newcomer's first tasks, done in Chromium through the web interface as a
// person would, against the built server on an empty data folder: three parts
// made by hand, a 200-row spreadsheet imported (its mapping fixed on the
// screen), a range filter and its count, a bulk edit of what it found, and the
// export of those rows. Each task prints its wall time and the clicks and
// keystrokes it took, beside the same task as bare API requests on a server
// of its own; three rounds of each, alternating (one with --quick), medians
// quoted (decision 1309). A task that cannot be done fails the bench.
// Skipped, saying so, without Debian's Chromium (apt-get install -y chromium).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '../packages/web/node_modules/playwright-core'
import type { BenchRow, HttpBenchContext } from './http'
import { median } from './lib/load'
import { newcomerThroughApi, type ApiTask } from './lib/newcomer-api'
import { BULK_TAG, CATEGORY, HAND_PARTS, MAPPING_FIXES, RANGE, csvRecords, newcomerSheet, type Sheet } from './lib/newcomer-sheet'
import { startServerProcess, type ServerProcess } from './lib/server'

const CHROMIUM = process.env.COMPLIB_CHROMIUM ?? '/usr/bin/chromium'

/**
 * Every interaction of a task goes through these, which count what a person
 * does: a click is one press of the mouse button (a field is clicked before it
 * is typed in; a drop-down list takes two, to open it and to pick; a file
 * takes two, the field and the file in the dialog); a keystroke is one
 * character typed or one key pressed.
 */
class Person {
  clicks = 0
  keys = 0
  constructor(readonly page: Page) {}

  async click(target: Locator): Promise<void> {
    await target.click()
    this.clicks++
  }

  /** Clicks into the field, then types one character after another (a pressed key, such as Enter, would count one too). */
  async type(field: Locator, text: string): Promise<void> {
    await this.click(field)
    await field.pressSequentially(text)
    this.keys += [...text].length
  }

  async choose(list: Locator, option: string): Promise<void> {
    await list.selectOption(option)
    this.clicks += 2
  }

  async chooseFile(field: Locator, name: string, text: string): Promise<void> {
    await field.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) })
    this.clicks += 2
  }
}

interface TaskResult {
  name: string
  ms: number
  clicks: number
  keys: number
}

export async function benchNewcomer(ctx: HttpBenchContext): Promise<BenchRow[]> {
  if (!existsSync(CHROMIUM)) {
    ctx.log(`newcomer: skipped, no Chromium at ${CHROMIUM}`)
    return []
  }
  const sheet = newcomerSheet(200)
  // Rounds alternate the page and the API, each on an empty library of its own (decision 1301).
  const rounds = ctx.quick ? 1 : 3
  const inPage: TaskResult[][] = []
  const inApi: ApiTask[][] = []
  for (let r = 0; r < rounds; r++) {
    inPage.push(await _onEmptyLibrary((base) => _inTheBrowser(base, sheet, ctx)))
    inApi.push(await _onEmptyLibrary((base) => newcomerThroughApi(base, sheet)))
  }
  const s = (ms: number) => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`)
  const timed = (list: number[]) => (list.length === 1 ? s(list[0]!) : `${s(median(list))} (median of ${list.length}: ${list.map(s).join(', ')})`)
  // Clicks and keystrokes are the same every round unless the page took another path (a range set again): the range of them then.
  const counted = (list: number[], word: string) => `${Math.min(...list) === Math.max(...list) ? list[0] : `${Math.min(...list)}–${Math.max(...list)}`} ${word}`
  const task = (i: number) => ({ page: inPage.map((round) => round[i]!), api: inApi.map((round) => round[i]!) })
  const rows: BenchRow[] = inPage[0]!.map((first, i) => {
    const { page, api } = task(i)
    const [ms, apiMs] = [median(page.map((t) => t.ms)), median(api.map((a) => a.ms))]
    return {
      scenario: `newcomer ${i + 1}: ${first.name} (Chromium, empty library)`,
      subject: `${timed(page.map((t) => t.ms))}; ${counted(page.map((t) => t.clicks), 'clicks')}, ${counted(page.map((t) => t.keys), 'keystrokes')}`,
      baseline: `${timed(api.map((a) => a.ms))} ${api[0]!.what} alone`,
      ratio: (ms / apiMs).toFixed(1),
      target: 'done (no time target)',
    }
  })
  const total = (round: Array<{ ms: number }>) => round.reduce((n, t) => n + t.ms, 0)
  const pageTotals = inPage.map(total)
  const apiTotals = inApi.map(total)
  rows.push({
    scenario: 'newcomer: the five tasks',
    subject: `${timed(pageTotals)}; ${counted(inPage.map((round) => round.reduce((n, t) => n + t.clicks, 0)), 'clicks')}, ${counted(inPage.map((round) => round.reduce((n, t) => n + t.keys, 0)), 'keystrokes')}`,
    baseline: `${timed(apiTotals)} through the API alone`,
    ratio: (median(pageTotals) / median(apiTotals)).toFixed(1),
    target: 'done (no time target)',
  })
  return rows
}

/** Runs `work` against the built server on a data folder of its own, empty, removed afterwards. */
async function _onEmptyLibrary<T>(work: (base: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'complib-newcomer-'))
  let server: ServerProcess | undefined
  try {
    server = await startServerProcess(dir)
    return await work(server.url)
  } finally {
    await server?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function _inTheBrowser(base: string, sheet: Sheet, ctx: HttpBenchContext): Promise<TaskResult[]> {
  // playwright-core is the web package's (its e2e tests'); Playwright's own browser download is never used.
  const { chromium } = createRequire(new URL('../packages/web/package.json', import.meta.url))('playwright-core') as typeof import('../packages/web/node_modules/playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, acceptDownloads: true })
    // A step that cannot be done fails in seconds, naming the task.
    context.setDefaultTimeout(20_000)
    const page = await context.newPage()
    page.on('dialog', (d) => void d.accept())
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(`${base}/`)
    await page.getByRole('heading', { name: 'Library' }).waitFor()
    const person = new Person(page)
    const results: TaskResult[] = []
    const task = async (name: string, run: () => Promise<void>) => {
      const [clicks, keys] = [person.clicks, person.keys]
      const t0 = performance.now()
      try {
        await run()
      } catch (e) {
        // What the page showed when the task got stuck, beside the bench's table.
        mkdirSync('bench-results', { recursive: true })
        await page.screenshot({ path: 'bench-results/newcomer-failed.png', fullPage: true }).catch(() => {})
        throw new Error(`bench: newcomer: "${name}" could not be done in the page (see bench-results/newcomer-failed.png): ${(e as Error).message}`)
      }
      const done = { name, ms: performance.now() - t0, clicks: person.clicks - clicks, keys: person.keys - keys }
      results.push(done)
      ctx.log(`newcomer: ${name}: ${done.ms.toFixed(0)} ms, ${done.clicks} clicks, ${done.keys} keystrokes`)
    }
    await task('three parts by hand', () => _handParts(person))
    await task(`import of a ${sheet.rows}-row spreadsheet, its mapping fixed`, () => _importSheet(person, sheet))
    await task(`range filter ${RANGE.type} ${RANGE.min}..${RANGE.max} and its count`, () => _rangeFilter(person, sheet))
    await task(`bulk edit of the ${sheet.inRange} parts found (a tag)`, () => _bulkEdit(person, sheet))
    await task('export of the filtered rows (CSV)', () => _exportFiltered(person, sheet))
    if (errors.length) throw new Error(`bench: newcomer: uncaught errors in the page: ${errors.join('; ')}`)
    await _checkLibrary(base, sheet)
    return results
  } finally {
    await browser.close()
  }
}

/** The three resistors, each from the library's New component to its own page. */
async function _handParts(person: Person): Promise<void> {
  const { page } = person
  for (const part of HAND_PARTS) {
    await _toScreen(person, 'Library')
    await person.click(page.getByRole('link', { name: 'New component', exact: true }).first())
    await person.type(page.getByLabel('Name', { exact: true }), part.name)
    await person.type(page.getByLabel('Category', { exact: true }), CATEGORY)
    // A category's template may offer the parameter as a field of its own; else a parameter row is added.
    const templateField = page.getByRole('textbox', { name: RANGE.type, exact: true })
    if (await templateField.count()) await person.type(templateField, part.resistance)
    else {
      await person.click(page.getByRole('button', { name: 'Add parameter' }))
      await person.type(page.getByRole('textbox', { name: 'Parameters 1: Parameter' }), RANGE.type)
      await person.type(page.getByRole('textbox', { name: 'Parameters 1: Value' }), part.resistance)
    }
    await person.click(page.getByRole('button', { name: 'Create component' }))
    await page.waitForURL(/#\/components\/(?!new)[^/]+$/)
    await page.getByRole('heading', { name: part.name }).waitFor()
  }
}

/** The file chosen, the two columns the server guessed wrong mapped on the screen, committed. */
async function _importSheet(person: Person, sheet: Sheet): Promise<void> {
  const { page } = person
  await _toScreen(person, 'Import & export')
  await person.chooseFile(page.getByLabel(/^File/), 'parts.csv', sheet.csv)
  // Read and planned once the mapping is shown.
  await page.getByLabel(/Part Number/).first().waitFor({ timeout: 60_000 })
  for (const [column, target] of Object.entries(MAPPING_FIXES)) {
    const list = page.getByLabel(new RegExp(`^Column “${column.replace(/[.#]/g, '\\$&')}”`))
    await person.choose(list, target)
    // The mapping is sent at once; the list shows the choice again once the server has read the rows anew.
    await _until(async () => (await list.inputValue()) === target && (await list.isEnabled()), `the mapping of ${column} to be saved`)
  }
  await person.click(page.getByRole('button', { name: /^Commit/ }))
  await page.getByText(new RegExp(`${sheet.rows} created`)).waitFor({ timeout: 60_000 })
}

/** Filters: one range, applied; the count above the table must be the parts in the range. */
async function _rangeFilter(person: Person, sheet: Sheet): Promise<void> {
  await _toScreen(person, 'Library')
  await _applyRange(person)
  await _waitForCount(person.page, sheet.inRange)
}

/** Every row found selected, on to the bulk edit: a tag added, a dry run, applied. */
async function _bulkEdit(person: Person, sheet: Sheet): Promise<void> {
  const { page } = person
  await person.click(page.getByRole('button', { name: /^Select (all|the)/ }))
  await page.getByText(new RegExp(`^${sheet.inRange}( components?)? selected`)).waitFor()
  await person.click(page.getByRole('link', { name: 'Bulk edit selected' }))
  await page.getByText(`${sheet.inRange} components selected`).waitFor()
  await person.type(page.getByLabel('Add tags (comma separated)'), BULK_TAG)
  await person.click(page.getByRole('button', { name: 'Preview (dry run)' }))
  await page.getByRole('heading', { name: new RegExp(`^Dry run: ${sheet.inRange} components would change`) }).waitFor()
  await person.click(page.getByRole('button', { name: `Apply to ${sheet.inRange} components` }))
  await page.getByText(`Done: ${sheet.inRange} of ${sheet.inRange} applied.`).waitFor({ timeout: 60_000 })
}

/** Back to the library (the range is set again if the screen forgot it), the filtered rows downloaded as CSV. */
async function _exportFiltered(person: Person, sheet: Sheet): Promise<void> {
  const { page } = person
  await _toScreen(person, 'Library')
  await _until(async () => /^\d[\d,]*\+? components?/.test(await _countText(page)) && !(await _countText(page)).includes('updating'), 'the library to load')
  if (!(await _countIs(page, sheet.inRange))) {
    await _applyRange(person)
    await _waitForCount(page, sheet.inRange)
  }
  // An Export menu (or button) on the library screen, then its CSV choice if it offers one.
  const screen = page.getByRole('main')
  const opener = screen.locator('summary', { hasText: /^Export/ }).or(screen.getByRole('button', { name: /^Export/ }))
  // Waited for, not counted at once, so a slow render is not taken for a missing control.
  await opener.first().waitFor({ timeout: 10_000 }).catch(() => {
    throw new Error('the library screen offers no export of the filtered rows')
  })
  const downloaded = page.waitForEvent('download')
  downloaded.catch(() => {}) // awaited below; a page that never downloads fails there
  await person.click(opener.first())
  const csv = screen.getByRole('button', { name: /CSV/ })
  const next = await Promise.race([downloaded.then(() => 'downloaded'), csv.waitFor().then(() => 'menu', () => 'no menu')])
  if (next === 'menu') await person.click(csv)
  const download = await downloaded
  const records = csvRecords(readFileSync((await download.path())!, 'utf8')).filter((r) => r.some((f) => f !== ''))
  if (records.length - 1 !== sheet.inRange) throw new Error(`the exported CSV holds ${records.length - 1} rows, not the ${sheet.inRange} filtered`)
}

/** The range filter as a person sets it: the filters opened, a range added and filled, applied. */
async function _applyRange(person: Person): Promise<void> {
  const { page } = person
  await person.click(page.locator('summary', { hasText: /^Filters/ }).or(page.getByRole('button', { name: /^Filters/ })).first())
  await person.click(page.getByRole('button', { name: /^Add a range/ }))
  await person.type(page.getByLabel('Parameter', { exact: true }).last(), RANGE.type)
  await person.type(page.getByLabel('From', { exact: true }).last(), RANGE.min)
  await person.type(page.getByLabel('to', { exact: true }).last(), RANGE.max)
  await person.click(page.getByRole('button', { name: 'Apply filters' }))
}

async function _toScreen(person: Person, name: string): Promise<void> {
  await person.click(person.page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true }))
  // The screen's own heading: the one before it stays a moment after the click, and its count line
  // ("41 components selected" on the bulk edit screen) read as the library's.
  await person.page.getByRole('heading', { level: 1, name, exact: true }).waitFor()
}

/** The count above the table, once the server's answer is in. */
async function _countText(page: Page): Promise<string> {
  return (await page.locator('.screen-head p').first().textContent()) ?? ''
}

async function _countIs(page: Page, want: number): Promise<boolean> {
  const text = await _countText(page)
  return text.startsWith(`${want.toLocaleString('en-US')} components`) && !text.includes('updating')
}

async function _waitForCount(page: Page, want: number): Promise<void> {
  try {
    await _until(() => _countIs(page, want), `the count ${want}`)
  } catch {
    throw new Error(`the library says "${await _countText(page)}", not ${want} components`)
  }
}

async function _until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** What the page did, read back from the API: every part there, the tag on exactly those in the range. */
async function _checkLibrary(base: string, sheet: Sheet): Promise<void> {
  const total = async (query: string) => Number((await fetch(`${base}/api/components?limit=1&${query}`)).headers.get('x-total-count'))
  const all = await total('')
  if (all !== sheet.rows + HAND_PARTS.length) throw new Error(`bench: newcomer: the library holds ${all} components, not ${sheet.rows + HAND_PARTS.length}`)
  const sample = ((await (await fetch(`${base}/api/components?q=RES-0603-4K7&limit=2`)).json()) as Array<{ ipn: string; mpns: Array<{ partNumber: string }>; parameters: Array<{ type: string }> }>)[0]
  const asMeant = sample?.ipn === 'RES-0603-4K7' && sample.mpns.map((m) => m.partNumber).join() === 'RC0603FR-074K7L' && sample.parameters.map((p) => p.type).join() === RANGE.type
  if (!asMeant) throw new Error(`bench: newcomer: an imported part is not as the fixed mapping says: ${JSON.stringify(sample)}`)
  const tagged = await total(`tag=${BULK_TAG}`)
  if (tagged !== sheet.inRange) throw new Error(`bench: newcomer: ${tagged} components carry the tag ${BULK_TAG}, not ${sheet.inRange}`)
}
