import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The layout the code keeps (decision 0100): engine-neutral stores apart from
// each engine, engines that never import each other, and no import cycle in
// any package's source (type-only imports included: a cycle of types is still
// two files that cannot be read one without the other).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const STORAGE = join(ROOT, 'packages/core/src/storage')

describe('the import graph', () => {
  const graph = _graph()

  it('has no import between the two engine folders', () => {
    const crossing = _edges(graph).filter(([from, to]) => {
      const a = _engine(from)
      const b = _engine(to)
      return a !== null && b !== null && a !== b
    })
    expect(crossing.map(_show)).toEqual([])
  })

  it('keeps the engine-neutral stores and internals free of either engine', () => {
    const neutral = (file: string) => file.startsWith(join(STORAGE, 'stores/')) || file.startsWith(join(STORAGE, '_internal/'))
    const leaks = _edges(graph).filter(([from, to]) => neutral(from) && _engine(to) !== null)
    expect(leaks.map(_show)).toEqual([])
  })

  it('has no cycle in any package', () => {
    expect(_cycles(graph).map((cycle) => cycle.map((f) => relative(ROOT, f)).join(' → '))).toEqual([])
  })

  it('finds a cycle and a crossing when there is one', () => {
    const a = join(STORAGE, 'sqlite/a.ts')
    const b = join(STORAGE, 'postgres/b.ts')
    const planted = new Map([
      [a, [b]],
      [b, [a]],
    ])
    expect(_cycles(planted)).toHaveLength(1)
    expect(_edges(planted).filter(([from, to]) => _engine(from) !== _engine(to))).toHaveLength(2)
  })
})

/** Every source file of every package (tests left out) and the files it imports, relative imports resolved. */
function _graph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const pkg of readdirSync(join(ROOT, 'packages'))) {
    const src = join(ROOT, 'packages', pkg, 'src')
    if (!existsSync(src)) continue
    for (const file of _files(src)) {
      const text = readFileSync(file, 'utf8')
      const targets: string[] = []
      for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)) {
        const spec = match[1] ?? match[2]!
        if (!spec.startsWith('.')) continue
        const target = _resolve(dirname(file), spec)
        if (target) targets.push(target)
      }
      graph.set(file, targets)
    }
  }
  return graph
}

function _files(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(..._files(path))
    else if (/\.(ts|tsx|js)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path)
  }
  return out
}

function _resolve(from: string, spec: string): string | null {
  const base = resolve(from, spec)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

function _edges(graph: Map<string, string[]>): Array<[string, string]> {
  return [...graph].flatMap(([from, targets]) => targets.map((to): [string, string] => [from, to]))
}

function _engine(file: string): 'sqlite' | 'postgres' | null {
  if (file.startsWith(join(STORAGE, 'sqlite/'))) return 'sqlite'
  if (file.startsWith(join(STORAGE, 'postgres/'))) return 'postgres'
  return null
}

function _show([from, to]: [string, string]): string {
  return `${relative(ROOT, from)} → ${relative(ROOT, to)}`
}

/** One cycle per strongly connected group of files that import each other (Tarjan). */
function _cycles(graph: Map<string, string[]>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  const visit = (node: string) => {
    indices.set(node, index)
    low.set(node, index++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!))
    }
    if (low.get(node) === indices.get(node)) {
      const group: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== node)
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) out.push(group.reverse())
    }
  }
  for (const node of graph.keys()) if (!indices.has(node)) visit(node)
  return out
}
