import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from '@complib/api-server'
import { afterAll, describe, expect, it } from 'vitest'
import { exec, repoRoot, tsc } from '@complib/test-support/tools'

const packageRoot = fileURLToPath(new URL('..', import.meta.url))

// What a user gets from a clone (`npm run pack`; it is on no registry): the packed tarball installed into a project
// outside the monorepo (no workspace packages to fall back on), a script
// type-checked against the published declarations, then run against a server.
const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

const SCRIPT = `
import { createClient, PreconditionFailedError, type Component, type PatchManyProgress } from '@complib/client-sdk'

const client = createClient({ baseUrl: process.argv[2]! })
const made: Component[] = []
for (const name of ['RC0603 10k', 'RC0603 4k7', 'LM358']) made.push(await client.components.create({ name, category: 'Parts' }))

// The types come from core's schemas: a typo or a wrong status does not compile.
// @ts-expect-error unknown field
void (() => client.components.create({ nmae: 'typo' }))
// @ts-expect-error not a status
void (() => client.components.patch(made[0]!.id, { status: 'retired' }))
const version: number = made[0]!.version

const names: string[] = []
for await (const c of client.components.iterate({ limit: 2 })) names.push(c.name)

const patched = await client.components.patch(made[0]!.id, { description: 'thick film' }, { ifMatch: version })
let stale = ''
try {
  await client.components.patch(made[0]!.id, { description: 'lost update' }, { ifMatch: version })
} catch (error) {
  if (error instanceof PreconditionFailedError) stale = error.code
}

const progress: PatchManyProgress[] = []
const bulk = await client.components.patchMany(
  made.slice(1).map((c) => ({ id: c.id, patch: { description: c.name + ', edited' }, ifMatch: c.version })),
  { concurrency: 2, onProgress: (p) => progress.push(p) },
)
const suggestions = await client.suggest('components', 'rc0603')
console.log(JSON.stringify({ names, description: patched.description, stale, patched: bulk.patched, done: progress.map((p) => p.done), suggestions: suggestions.length }))
`

describe('the packed @complib/client-sdk', () => {
  it('installs with npm outside the workspace, type-checks a script and runs it against a live server', async () => {
    const work = await mkdtemp(join(tmpdir(), 'complib-pack-'))
    dirs.push(work)
    // `npm run pack`'s script, as the README has it; prepack builds dist (ESM and bundled declarations) first.
    await exec(process.execPath, [join(repoRoot, 'scripts/pack.mjs'), '--out', work, 'client-sdk'], { cwd: packageRoot })
    const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'))!
    expect(tarball).toMatch(/^complib-client-sdk-.*\.tgz$/)

    const project = join(work, 'project')
    await mkdir(project)
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }))
    await exec('npm', ['install', join(work, tarball), '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: project })

    const installed = join(project, 'node_modules/@complib/client-sdk')
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'))
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' })
    // The types of core are bundled: a client pulls neither core nor its storage engine.
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['ofetch', 'zod'])
    expect((await readdir(join(installed, 'dist'))).sort()).toEqual(['index.d.ts', 'index.js'])
    expect(await readFile(join(installed, 'dist/index.d.ts'), 'utf8')).not.toMatch(/from '@complib\//)

    await writeFile(join(project, 'script.ts'), SCRIPT)
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          // What `tsc --init` writes; ofetch's own declarations name undici, an optional peer.
          skipLibCheck: true,
          outDir: 'out',
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules/@types')],
        },
        files: ['script.ts'],
      }),
    )
    await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project })

    const dataDir = join(work, 'data')
    const server = await startServer({ port: 0, dataDir, log: () => {} })
    try {
      const { stdout } = await exec(process.execPath, ['out/script.js', server.url], { cwd: project })
      expect(JSON.parse(stdout)).toEqual({
        names: ['RC0603 10k', 'RC0603 4k7', 'LM358'],
        description: 'thick film',
        stale: 'PRECONDITION_FAILED',
        patched: 2,
        done: [1, 2],
        suggestions: 2,
      })
      // The README's script for a folder outside the clone ("Scripting"), as written there, plain JavaScript.
      const readme = await readFile(join(repoRoot, 'README.md'), 'utf8')
      const listing = /save this as `list\.mjs`[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1]!
      await writeFile(join(project, 'list.mjs'), listing.replace('http://127.0.0.1:4000', server.url))
      const listed = await exec(process.execPath, ['list.mjs'], { cwd: project })
      expect(listed.stdout.trim().split('\n').map((line) => line.split(' ').slice(1).join(' '))).toEqual(['RC0603 10k', 'RC0603 4k7', 'LM358'])
    } finally {
      await server.close()
    }
  }, 120_000)
})
