import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '@complib/test-support/tools'

// Each Node installs only its own SQLite binding (decision 0023): better-sqlite3 12 on
// Node 20, 13 (prebuilt) on Node 22 and 24. pnpm leaves out an optional package whose
// `engines` the running Node does not satisfy, so the lockfile must record both as
// optional, each with its Node range, and no workspace package may require 12.

const lock = readFileSync(join(repoRoot, 'pnpm-lock.yaml'), 'utf8')
const workspace = readFileSync(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8')

/** The indented block under a line of the lockfile (`  better-sqlite3@12.11.1:`), in a section. */
function block(section: 'packages' | 'snapshots', key: string): string {
  const text = lock.slice(lock.indexOf(`\n${section}:\n`))
  const start = text.indexOf(`\n  ${key}:`)
  expect(start, `${section} ${key}`).toBeGreaterThan(0)
  const rest = text.slice(start + 1)
  const end = rest.slice(1).search(/\n {2}\S|\n\S/)
  return rest.slice(0, end + 1)
}

const versionOf = (major: number) => new RegExp(`\\n {2}better-sqlite3@(${major}\\.\\d+\\.\\d+):`).exec(lock)?.[1]

describe('the SQLite binding each Node installs', () => {
  const v12 = versionOf(12)!
  const v13 = versionOf(13)!

  it('the lockfile has 12 for Node 20 only and 13 for Node 22 and later, both optional', () => {
    expect(v12).toBeTruthy()
    expect(v13).toBeTruthy()
    expect(block('packages', `better-sqlite3@${v12}`)).toContain(`engines: {node: '>=20.19.0 <22'}`)
    expect(block('packages', `better-sqlite3@${v13}`)).toContain(`engines: {node: '>=22'}`)
    expect(block('snapshots', `better-sqlite3@${v12}`)).toContain('optional: true')
    expect(block('snapshots', `better-sqlite3@${v13}`)).toContain('optional: true')
  })

  it('no workspace package has better-sqlite3 as a dependency or devDependency, only as an optional one', () => {
    const importers = lock.slice(lock.indexOf('\nimporters:\n'), lock.indexOf('\npackages:\n'))
    const required: string[] = []
    let importer = ''
    let section = ''
    for (const line of importers.split('\n')) {
      if (/^ {2}\S/.test(line)) importer = line.trim().replace(/:$/, '')
      else if (/^ {4}\S/.test(line)) section = line.trim().replace(/:$/, '')
      else if (/^ {6}better-sqlite3:$/.test(line) && section !== 'optionalDependencies') required.push(`${importer} ${section}`)
    }
    expect(required).toEqual([])
  })

  it(".pnpmfile.cjs narrows 12's engines and takes core's devDependency as optional; other packages are left alone", () => {
    const { hooks } = createRequire(import.meta.url)(join(repoRoot, '.pnpmfile.cjs')) as { hooks: { readPackage: (pkg: Record<string, any>) => Record<string, any> } }
    expect(hooks.readPackage({ name: 'better-sqlite3', version: v12, engines: { node: '20.x || 22.x' } }).engines).toEqual({ node: '>=20.19.0 <22' })
    expect(hooks.readPackage({ name: 'better-sqlite3', version: v13, engines: { node: '>=22' } }).engines).toEqual({ node: '>=22' })
    const core = hooks.readPackage({ name: '@complib/core', devDependencies: { 'better-sqlite3': '^12.11.1', pg: '^8' }, optionalDependencies: { 'better-sqlite3-napi': 'npm:better-sqlite3@^13' } })
    expect(core.devDependencies).toEqual({ pg: '^8' })
    expect(core.optionalDependencies).toEqual({ 'better-sqlite3-napi': 'npm:better-sqlite3@^13', 'better-sqlite3': '^12.11.1' })
    // What core publishes still leaves the driver to its user (decision 0108).
    const published = JSON.parse(readFileSync(join(repoRoot, 'packages/core/package.json'), 'utf8')) as { optionalDependencies: Record<string, string> }
    expect(Object.keys(published.optionalDependencies)).toEqual(['better-sqlite3-napi'])
  })

  it("pnpm-workspace.yaml runs 12's install script and skips 13's no-op node-gyp step, by the locked versions", () => {
    expect(workspace).toMatch(new RegExp(`\\n {2}better-sqlite3@${v12.replace(/\./g, '\\.')}: true\\n`))
    expect(workspace).toMatch(new RegExp(`\\n {2}better-sqlite3@${v13.replace(/\./g, '\\.')}: false\\n`))
    // A name without a version would allow 13's step too.
    expect(workspace).not.toMatch(/\n {2}better-sqlite3: /)
  })
})
