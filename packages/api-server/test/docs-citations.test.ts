import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Comments and docs say why by citing a decision record (`decision 0123`, or a
// link to docs/decisions/0123-topic.md) or a README section (`core README,
// "Durability"`). A citation of something that does not exist sends the reader
// nowhere, and a mention of an issue, a finding, a session or a document the
// repository does not hold sends them outside it: both fail here.

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..')
const DECISIONS = join(ROOT, 'docs/decisions')

/** Files whose text is read: source, docs, READMEs, scripts. */
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|py|sh|yml|yaml|css|html)$/
/** The package lock and the like are generated; this file names the forms it refuses. */
const SKIPPED = new Set(['pnpm-lock.yaml', 'packages/api-server/test/docs-citations.test.ts'])
/** Where a mention of a work item (an issue, a finding, a session) or of the absent specification document is refused. */
const NO_OUTSIDE_REFERENCES = /^(packages|examples|bench)\//
/**
 * The specification document's name, and the work items of the refused forms, spelled in parts: this
 * file must name them, and a plain `git grep` for such citations over packages/ should find none.
 */
const _ABSENT_DOC = 'SP' + 'EC'
const _ISSUE = 'issue' + ' 18'
const _FINDING = 'finding' + ' 4'
const _SESSION = 'session' + ' 11'

describe('citations in source and docs', () => {
  const records = _records()
  const readmes = new Map<string, Set<string> | null>()
  const headingsOf = (readme: string): Set<string> | null => {
    if (!readmes.has(readme)) readmes.set(readme, existsSync(join(ROOT, readme)) ? _headings(readFileSync(join(ROOT, readme), 'utf8')) : null)
    return readmes.get(readme)!
  }

  it('every record is `# NNNN. Title` in a file NNNN-topic.md, listed in the index', () => {
    const index = readFileSync(join(DECISIONS, 'README.md'), 'utf8')
    const problems: string[] = []
    for (const [number, file] of records) {
      const title = readFileSync(join(DECISIONS, file), 'utf8').split('\n')[0]!
      if (!title.startsWith(`# ${number}. `)) problems.push(`${file}: its first line is not "# ${number}. Title"`)
      if (!index.includes(`(${file})`)) problems.push(`${file}: not listed in docs/decisions/README.md`)
    }
    expect(problems).toEqual([])
  })

  it('every cited decision record and README section exists, and nothing under packages/, examples/ or bench/ cites a work item or the absent specification', () => {
    const problems: string[] = []
    for (const path of _trackedTextFiles()) {
      const text = readFileSync(join(ROOT, path), 'utf8')
      problems.push(..._findProblems(path, text, records, headingsOf))
    }
    expect(problems).toEqual([])
  })

  it('finds each kind of bad citation in a planted text', () => {
    const planted = [
      'see decision 9998 for why', // a record that does not exist
      'as docs/decisions/0001-no-such-topic.md says',
      'the core README, "No such heading" explains',
      `a leftover from ${_ISSUE}, ${_FINDING}`,
      `done in ${_SESSION}`,
      `the ${_ABSENT_DOC} says so`,
      'details in docs/decisions.md',
    ].join('\n')
    const problems = _findProblems('packages/x/src/planted.ts', planted, records, headingsOf)
    expect(problems.map((p) => p.replace(/^.*?: /, ''))).toEqual([
      'cites decision 9998, which has no record in docs/decisions/',
      'cites docs/decisions/0001-no-such-topic.md, which does not exist',
      'cites the decisions.md file, which is now docs/decisions/',
      'cites "No such heading" of packages/core/README.md, which has no such section',
      `mentions "${_ISSUE}", which the repository does not hold: cite a decision record or say why inline`,
      `mentions "${_FINDING}", which the repository does not hold: cite a decision record or say why inline`,
      `mentions "${_SESSION}", which the repository does not hold: cite a decision record or say why inline`,
      `mentions "${_ABSENT_DOC}", which the repository does not hold: cite a decision record or say why inline`,
    ])
    // Good citations pass.
    expect(_findProblems('packages/x/src/ok.ts', 'see decisions 0001, 0002 and 0100–0103; core README, "Durability"; README "Scripting"', records, headingsOf)).toEqual([])
  })
})

/** The problems of one file's text; `records` maps a record's number to its file name. */
function _findProblems(
  path: string,
  text: string,
  records: Map<string, string>,
  headingsOf: (readme: string) => Set<string> | null,
): string[] {
  const problems: string[] = []
  const at = (index: number) => `${path}:${text.slice(0, index).split('\n').length}`
  // `decision 0123`, `decisions 0123, 0124 and 0200–0210`.
  for (const m of text.matchAll(/\bdecisions?\s+(\d{4}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+|\s*[–-]\s*)\d{4})*)\b/gi)) {
    for (const number of m[1]!.match(/\d{4}/g)!) {
      if (!records.has(number)) problems.push(`${at(m.index)}: cites decision ${number}, which has no record in docs/decisions/`)
    }
  }
  // A record by its path, from anywhere, or by its file name inside docs/decisions/.
  const pathForm = /docs\/decisions\/(\d{4}-[a-z0-9-]+\.md)/g
  const linkForm = path.startsWith('docs/decisions/') ? /\]\((\d{4}-[a-z0-9-]+\.md)\)/g : null
  for (const form of [pathForm, linkForm]) {
    if (form === null) continue
    for (const m of text.matchAll(form)) {
      if (!existsSync(join(DECISIONS, m[1]!))) problems.push(`${at(m.index)}: cites docs/decisions/${m[1]}, which does not exist`)
    }
  }
  for (const m of text.matchAll(/\bdecisions\.md\b/g)) problems.push(`${at(m.index)}: cites the decisions.md file, which is now docs/decisions/`)
  // `README "Heading"`, `core README, "Heading"`, `the root README: "Heading"`.
  for (const m of text.matchAll(/(?:\b([a-z][a-z0-9-]*)\s+)?README(?:\.md)?(?:'s)?\s*[,:]?\s*(?:section\s+)?"([^"\n]+)"/g)) {
    const readme = _readmeNamed(m[1])
    const headings = headingsOf(readme)
    const cited = m[2]!
    if (headings === null) problems.push(`${at(m.index)}: cites ${readme}, which does not exist`)
    else if (![...headings].some((h) => h === cited || h.startsWith(`${cited} `))) {
      problems.push(`${at(m.index)}: cites "${cited}" of ${readme}, which has no such section`)
    }
  }
  if (NO_OUTSIDE_REFERENCES.test(path)) {
    for (const m of text.matchAll(new RegExp(String.raw`\b(?:issue|finding|session)\s+#?\d+|\b${_ABSENT_DOC}\b`, 'gi'))) {
      if (m[0].toUpperCase() === _ABSENT_DOC && m[0] !== _ABSENT_DOC) continue // `spec` is ordinary English and code
      problems.push(`${at(m.index)}: mentions "${m[0]}", which the repository does not hold: cite a decision record or say why inline`)
    }
  }
  return problems
}

/** Record number → file name, for every docs/decisions/NNNN-topic.md. */
function _records(): Map<string, string> {
  const records = new Map<string, string>()
  for (const file of readdirSync(DECISIONS)) {
    const m = /^(\d{4})-[a-z0-9-]+\.md$/.exec(file)
    if (m) records.set(m[1]!, file)
  }
  return records
}

/** Tracked text files that are on disk (a file renamed but not yet committed is skipped). */
function _trackedTextFiles(): string[] {
  const out = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  if (out.status !== 0) throw new Error(`git ls-files failed: ${out.stderr}`)
  return out.stdout.split('\0').filter((p) => TEXT.test(p) && !SKIPPED.has(p) && existsSync(join(ROOT, p)))
}

/**
 * The README a citation names: no qualifier, `the` or `root` is the root README;
 * a package's name (`core`, `client-sdk`) is its README; an example's name is its README.
 */
function _readmeNamed(qualifier: string | undefined): string {
  if (qualifier === undefined || qualifier === 'the' || qualifier === 'root') return 'README.md'
  if (existsSync(join(ROOT, 'packages', qualifier, 'README.md'))) return `packages/${qualifier}/README.md`
  if (existsSync(join(ROOT, 'examples', qualifier, 'README.md'))) return `examples/${qualifier}/README.md`
  return 'README.md'
}

/**
 * A README's sections: its headings outside code blocks, and the paragraphs that
 * open with a bold label (`**KiCad**: …`), which the root README uses as
 * sub-sections. A citation may give a heading's first words (`"Durability"` for
 * "Durability of the embedded storage").
 */
function _headings(markdown: string): Set<string> {
  const headings = new Set<string>()
  let inCode = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode
    if (inCode) continue
    const heading = /^#{1,6}\s+(.+?)\s*$/.exec(line)
    if (heading) headings.add(heading[1]!)
    const label = /^\*\*([^*]+?)\*\*/.exec(line)
    if (label) headings.add(label[1]!.replace(/[.:]$/, ''))
  }
  return headings
}
