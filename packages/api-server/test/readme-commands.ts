import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// What readme-commands.test.ts checks: the shell commands of the READMEs, as a reader
// would copy them. Every one runs with Node and npm alone.

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

export interface ReadmeCommand {
  /** README path relative to the root. */
  readme: string
  line: number
  /** The command with continuation lines joined and its comment removed. */
  text: string
  /** A ```sh block's index in its README, or -1 for an inline `code span`. */
  block: number
  /** What says how to get a tool: the command's own line (block) or its paragraph (inline). */
  context: string
}

/** The READMEs a newcomer reads: the root's, the examples' and the packages'. */
export function listReadmes(): string[] {
  const nested = ['examples', 'packages'].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .map((name) => `${dir}/${name}/README.md`)
      .filter((path) => existsSync(join(ROOT, path))),
  )
  return ['README.md', ...nested]
}

/** Words that start a command when an inline code span begins with one. */
const COMMAND_WORDS = new Set(['npm', 'npx', 'pnpm', 'yarn', 'node', 'curl', 'python3', 'python', 'cd', 'complib', 'tsx', 'turbo', 'vitest', 'changeset'])

/** Every command of a README in document order: lines of ```sh blocks, and inline spans that start with a command word. */
export function extractCommands(readme: string): ReadmeCommand[] {
  const lines = readFileSync(join(ROOT, readme), 'utf8').split('\n')
  const out: ReadmeCommand[] = []
  let block = -1
  let fence: string | null = null
  let pending: { start: number; text: string; comment: string } | null = null
  let paragraph: { start: number; lines: string[] } | null = null
  const flushParagraph = () => {
    if (!paragraph) return
    const text = paragraph.lines.join(' ')
    for (const m of text.matchAll(/`([^`]+)`/g)) {
      const span = m[1]!.trim()
      const first = _words(span).find((w) => !/^[A-Z_]+=/.test(w))
      // A span of one word names a tool (`complib`, `python3`); it is not a command to run.
      if (first && COMMAND_WORDS.has(first) && _words(span).length > 1) out.push({ readme, line: paragraph.start + 1, text: span, block: -1, context: text })
    }
    paragraph = null
  }
  lines.forEach((line, i) => {
    const opener = /^\s*```(\w*)/.exec(line)
    if (opener && fence === null) {
      flushParagraph()
      fence = opener[1]!
      if (['sh', 'bash', 'shell'].includes(fence)) block++
      return
    }
    if (opener) return void (fence = null)
    if (fence !== null) {
      if (!['sh', 'bash', 'shell'].includes(fence)) return
      const scanned = _scan(line, pending?.text.endsWith('\n') ? pending.text : undefined)
      const text = (pending ? pending.text : '') + scanned.code
      const comment = (pending?.comment ?? '') + scanned.comment
      if (scanned.open || /\\\s*$/.test(scanned.code)) {
        pending = { start: pending?.start ?? i, text: scanned.open ? `${text}\n` : text.replace(/\\\s*$/, ' '), comment }
        return
      }
      if (text.trim()) out.push({ readme, line: (pending?.start ?? i) + 1, text: text.trim().replace(/ {2,}/g, ' '), block, context: `${text} ${comment}` })
      pending = null
      return
    }
    if (!line.trim() || line.startsWith('|') || line.startsWith('#')) return flushParagraph()
    paragraph ??= { start: i, lines: [] }
    paragraph.lines.push(line)
  })
  flushParagraph()
  return out
}

/** Splits a command into shell words (quotes removed), and into simple commands at `&&`, `||`, `;`, `|`. */
export function splitCommand(text: string): string[][] {
  const simple: string[][] = [[]]
  for (const word of _words(text, true)) {
    if (['&&', '||', ';', '|'].includes(word)) simple.push([])
    else simple.at(-1)!.push(word)
  }
  return simple.filter((words) => words.length > 0)
}

/** A simple command's program: its first word after `NAME=value` assignments (undefined for a bare assignment). */
export function programOf(words: string[]): string | undefined {
  return words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))
}

/** The root package.json's scripts, and the examples that `npm run example -- <name>` can start. */
export function readScripts(): { scripts: Set<string>; examples: Set<string> } {
  const scripts = new Set(Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as object))
  const examples = new Set(
    readdirSync(join(ROOT, 'examples')).filter((d) => {
      const pkg = join(ROOT, 'examples', d, 'package.json')
      return existsSync(pkg) && Boolean(JSON.parse(readFileSync(pkg, 'utf8')).scripts?.start)
    }),
  )
  return { scripts, examples }
}

/**
 * The folder a command runs in: npm and npx at the root (where the READMEs say to run
 * them; the root package.json holds the scripts), anything else in the README's folder
 * (`python3 receiver.py` in examples/receiver-python), then wherever `cd` went.
 */
export function startFolder(command: ReadmeCommand): string {
  const first = programOf(splitCommand(command.text)[0] ?? [])
  return first === 'npm' || first === 'npx' ? ROOT : resolve(ROOT, dirname(command.readme))
}

/** Shell words, quotes removed; with `operators`, `&&` `||` `;` `|` come out as words of their own. */
function _words(text: string, operators = false): string[] {
  const words: string[] = []
  let word: string | null = null
  let quote: string | null = null
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quote) {
      if (c === quote) quote = null
      else word += c
    } else if (c === "'" || c === '"') {
      quote = c
      word ??= ''
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word)
      word = null
    } else if (operators && /[;&|]/.test(c)) {
      if (word !== null) words.push(word)
      word = null
      const op = text.slice(i, i + 2) === c + c ? c + c : c
      words.push(op)
      i += op.length - 1
    } else word = (word ?? '') + c
  }
  if (word !== null) words.push(word)
  return words
}

/** One line of a sh block: its code and comment, and whether it ends inside a quote. */
function _scan(line: string, continuing?: string): { code: string; comment: string; open: boolean } {
  let quote: string | null = null
  // A quote left open on the previous line (a JSON body over two lines) is still open.
  if (continuing) for (const c of continuing) if (c === "'" || c === '"') quote = quote === c ? null : (quote ?? c)
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (quote) {
      if (c === quote) quote = null
    } else if (c === "'" || c === '"') quote = c
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return { code: line.slice(0, i).trimEnd(), comment: line.slice(i), open: false }
  }
  return { code: line, comment: '', open: quote !== null }
}
