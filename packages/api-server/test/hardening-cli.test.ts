import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
// By its path: `--import tsx` is looked up from the working directory, an empty folder here.
const tsx = import.meta.resolve('tsx')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/**
 * `complib …` run from an empty working directory: its exit code and stderr,
 * or, when it starts serving instead, `code: 'served'` (it is stopped then).
 */
function runIn(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null | 'served'; err: string }> {
  const child = spawn(process.execPath, ['--import', tsx, cli, ...args], { cwd, env: { ...process.env, COMPLIB_DATA_DIR: undefined, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  child.stdin.end('a long enough password\n')
  let out = ''
  let err = ''
  let served = false
  return new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      out += d
      if (!served && /listening on/.test(out)) {
        served = true
        child.kill('SIGTERM')
      }
    })
    child.stderr.on('data', (d) => (err += d))
    child.on('exit', (code) => resolve({ code: served ? 'served' : code, err }))
  })
}

describe('an empty data folder is refused (decision 1014)', () => {
  it("serve --data '', COMPLIB_DATA_DIR='' and users add --data '': exit 2, one line naming the option, nothing made in the working directory", async () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['serve', '--port', '0', '--data', ''], {}, '--data'],
      [['serve', '--port', '0', '--data', '  '], {}, '--data'],
      [['serve', '--port', '0'], { COMPLIB_DATA_DIR: '' }, 'COMPLIB_DATA_DIR'],
      [['users', 'add', 'ada', '--role', 'admin', '--password-stdin', '--data', ''], {}, '--data'],
    ]
    for (const [args, env, name] of cases) {
      const cwd = mkdtempSync(join(tmpdir(), 'complib-cwd-'))
      dirs.push(cwd)
      const { code, err } = await runIn(cwd, args, env)
      const what = `${args.join(' ')} ${JSON.stringify(env)}`
      expect(code, `${what}: ${err}`).toBe(2)
      expect(err.trim().split('\n'), what).toHaveLength(1)
      expect(err, what).toContain(`${name} is empty`)
      expect(readdirSync(cwd), what).toEqual([])
    }
  })

  it('a data folder given by the flag wins over an empty COMPLIB_DATA_DIR, and serves', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'complib-cwd-'))
    dirs.push(cwd)
    const { code, err } = await runIn(cwd, ['serve', '--port', '0', '--data', join(cwd, 'data')], { COMPLIB_DATA_DIR: '' })
    expect(code, err).toBe('served')
    expect(readdirSync(cwd)).toEqual(['data'])
  })
})
