import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractCommands, listReadmes, programOf, readScripts, ROOT, splitCommand, startFolder, type ReadmeCommand } from './readme-commands'
import { startServe, type ServeProcess } from './reliability/server-process'

// The README works for someone who followed "Start here" only (Node
// and npm). Bare `pnpm` commands used to fail for them. Every shell command of the
// READMEs (```sh blocks and inline spans that start with a command) is checked here,
// and the ones that can run in CI are run against a real server.

/** What a newcomer has: Node and npm, a shell, and curl (every current OS ships it). */
const NEWCOMER_TOOLS = new Set(['npm', 'npx', 'node', 'cd', 'export', 'curl'])
/** Other tools, allowed where the command's line (a span's paragraph) says how to get them. */
const HOW_TO_GET: Record<string, RegExp> = {
  pnpm: /npm i(nstall)? -g pnpm|npx -y pnpm@/,
  // The Python examples say so: "Python 3's standard library only", "nothing to install".
  python3: /Python/,
  // The project's own command: the bin of @complib/api-server once installed from npm.
  complib: /./,
  // PostgreSQL's own client tool, for the PostgreSQL section: its line says so.
  createdb: /PostgreSQL/,
}
/** Commands checked but not run, and why. */
const NOT_RUN: [RegExp, string][] = [
  [/^npm (test|run (test:full|test:quick|vitest))\b|^npx vitest\b|^python3 -m unittest\b/, 'the test suite itself (CI runs `npm test`)'],
  [/^npm run (bench|build|typecheck)\b/, 'CI runs them: `npm test` type-checks, `.ci/run` runs `npm run bench -- --quick`, which builds'],
  [/^npm run changeset\b/, 'interactive'],
  [/^npm run pack\b/, 'builds and packs every package: the pack tests of api-server and client-sdk run scripts/pack.mjs'],
  [/^npm start -- users add (?!.*--password-stdin)/, 'interactive: asks for the password (cli.test.ts runs `users add` with --password-stdin)'],
  [/^npm i(nstall)? -g\b/, 'installs globally'],
  [/^npx openapi-typescript\b/, 'packages/client-sdk/test/openapi-typescript.test.ts runs it'],
  [/^complib\b/, 'the bin as installed from npm (signals.test.ts runs the built bin)'],
  [/^pnpm\b/, 'the optional pnpm form of an npm command beside it'],
  [/<[a-z ]+>|…|\[(--|args)/, 'a template with placeholders'],
  [/postgres:\/\/|^createdb\b/, 'needs a PostgreSQL server and a database of its own: the PostgreSQL suites (api-server-postgres, multi-server, copy) run these paths'],
]
const SECRET = /whsec_[A-Za-z0-9+/=]{20,}/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))![0]
const readmes = listReadmes()
const commands = readmes.flatMap(extractCommands)
const { scripts, examples } = readScripts()
let cliFlags: Set<string>

beforeAll(() => {
  const help = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/api-server/src/cli.ts'), '--help'], { encoding: 'utf8' })
  cliFlags = new Set([...help.stdout.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]).concat('--help'))
})

describe("the README's commands run with Node and npm alone, and the ones that can run in CI do", () => {
  it('finds the commands of every README', () => {
    expect(readmes).toContain('examples/receiver-node/README.md')
    expect(commands.filter((c) => c.readme === 'README.md').length).toBeGreaterThan(20)
  })

  it('runs no tool a newcomer lacks (bare pnpm) unless its line says how to get it', () => {
    const bad: string[] = []
    for (const c of commands) {
      for (const words of splitCommand(c.text)) {
        const program = programOf(words)
        if (!program || NEWCOMER_TOOLS.has(program)) continue
        const npmForm = program === 'pnpm' && new RegExp(`\`npm (run )?${words[words.indexOf(program) + 1]}\\b`).test(c.context)
        // A Python example's opening paragraph says it needs Python; other tools need their own line to say so.
        const context = program === 'python3' ? `${c.context} ${_intro(c.readme)}` : c.context
        if (HOW_TO_GET[program]?.test(context) || npmForm) continue
        bad.push(`${c.readme}:${c.line} \`${c.text}\` runs ${program}, which someone with only Node and npm lacks`)
      }
    }
    expect(bad).toEqual([])
  })

  it('names npm scripts, examples, CLI flags and files that exist', () => {
    const bad: string[] = []
    for (const { command, cwd } of _withState(commands)) {
      let here = cwd
      for (const words of splitCommand(command.text)) {
        const at = words.findIndex((w) => w === programOf(words))
        const [program, ...args] = words.slice(at)
        const where = `${command.readme}:${command.line} \`${command.text}\``
        if (program === 'npm' && (args[0] === 'start' || args[0] === 'test') && !scripts.has(args[0])) bad.push(`${where}: no "${args[0]}" script`)
        if (program === 'npm' && args[0] === 'run' && !scripts.has(args[1]!)) bad.push(`${where}: no "${args[1]}" script in package.json`)
        if (program === 'npm' && args[1] === 'example' && !args[3]?.startsWith('<') && !examples.has(args[3]!)) bad.push(`${where}: no example "${args[3]}" with a start script`)
        const cliArgs = program === 'complib' ? args : program === 'npm' && args[0] === 'start' ? args.slice(2) : []
        for (const flag of cliArgs.map((a) => a.replace(/^\[|\]$/g, '').split('=')[0]!).filter((a) => a.startsWith('--'))) {
          if (!cliFlags.has(flag)) bad.push(`${where}: complib has no ${flag} (see complib --help)`)
        }
        const paths: string[] = []
        if (program === 'cd') paths.push(args[0]!)
        if (program === 'python3' || program === 'node') paths.push(...args.slice(0, 1).filter((a) => !a.startsWith('-')))
        if (cliArgs.includes('--connector')) paths.push(cliArgs[cliArgs.indexOf('--connector') + 1]!)
        if (/^npm run (test:full|vitest) --|^npx vitest run/.test(words.slice(at).join(' '))) paths.push(...args.filter((a) => /[/.]/.test(a) && !a.startsWith('-')))
        for (const path of paths.filter((p) => !p.startsWith('<'))) {
          if (!existsSync(resolve(here, path))) bad.push(`${where}: ${path} does not exist (from ${here.slice(ROOT.length) || '/'})`)
        }
        if (program === 'cd' && args[0]) here = resolve(here, args[0])
      }
    }
    expect(bad).toEqual([])
  })

  describe('run against a real server', () => {
    let server: ServeProcess
    const scratch = mkdtempSync(join(tmpdir(), 'complib-readme-'))
    const running: ChildProcess[] = []
    let receiverPort: number
    let fallbackReceiver: ChildProcess | undefined

    beforeAll(async () => {
      // The server the READMEs' `npm start` would give, with what they load into it.
      const connectors = commands.flatMap((c) => /npm start -- --connector (\.\/\S+)/.exec(c.text)?.slice(1) ?? []).map((p) => resolve(ROOT, p))
      server = await startServe({ args: connectors.flatMap((p) => ['--connector', p]) })
      receiverPort = await _freePort()
    }, 60_000)
    afterAll(async () => {
      for (const child of running) await _stop(child)
      await server?.stop()
      rmSync(scratch, { recursive: true, force: true })
    })

    it('each command that can run in CI exits 0, requests answer 2xx, servers and receivers print their listening line', async () => {
      const hasCurl = spawnSync('curl', ['--version']).status === 0
      const hasPython = spawnSync('python3', ['--version']).status === 0
      const { hostname, port } = new URL(server.url)
      const failures: string[] = []
      const skipped: string[] = []
      const seen = new Set<string>()
      const createdFiles = ['examples/receiver-node/components.json', 'examples/receiver-python/components.json'].filter((f) => !existsSync(join(ROOT, f)))
      let scratchFiles = 0
      // A receiver on the port the READMEs' connectors point at, for pushes made before the README starts its own.
      fallbackReceiver = await _startReceiverFallback()
      let readmeReceiver: ChildProcess | undefined
      let readme = ''
      for (const { command, cwd, prelude } of _withState(commands)) {
        if (command.readme !== readme) {
          readme = command.readme
          if (readmeReceiver) (await _stop(readmeReceiver), (readmeReceiver = undefined), (fallbackReceiver = await _startReceiverFallback()))
        }
        // `<id>`: a component made for the command (version 1, as its If-Match expects).
        const id = command.text.includes('<id>') ? await _createComponent(`readme placeholder ${command.readme}:${command.line}`) : ''
        const substitute = (t: string) => t
          .replace(/(https?:\/\/)?(127\.0\.0\.1|localhost):4000/g, server.url)
          .replace(/127\.0\.0\.1:808[01]/g, `127.0.0.1:${receiverPort}`)
          .replace(/--port 808[01]/g, `--port ${receiverPort}`)
          .replace(/(npm start -- .*)--port \d+/, '$1--port 0')
          .replace(/--data ~\/\S+/, `--data ${scratch}/data-${command.line}`)
          .replace(/--file components\.json/, () => `--file ${scratch}/components-${++scratchFiles}.json`)
          .replace('/tmp/complib-export', `${scratch}/export`)
          .replace(/whsec_…/g, SECRET)
          .replace(/<id>/g, id)
        const text = substitute(command.text)
        const where = `${command.readme}:${command.line} \`${command.text}\``
        const notRun = NOT_RUN.find(([re]) => re.test(text))
        if (notRun) {
          skipped.push(`${where}: ${notRun[1]}`)
          continue
        }
        if (/^(B|[A-Z_]+)=\S+$|^export |^cd /.test(text)) continue // state, carried by _withState
        if ((/\bcurl\b/.test(text) && !hasCurl) || (/\bpython3\b/.test(text) && !hasPython)) {
          skipped.push(`${where}: ${hasCurl ? 'python3' : 'curl'} is not on this machine`)
          continue
        }
        const key = `${cwd}\0${prelude}\0${text}`
        if (seen.has(key)) continue
        seen.add(key)
        const env = {
          ...process.env,
          COMPLIB_URL: server.url,
          COMPLIB_HOST: hostname.replace(/^\[|\]$/g, ''),
          COMPLIB_PORT: port,
          COMPLIB_DATA_DIR: join(scratch, `data-${command.line}`),
          PORT: String(receiverPort),
        }
        const script = `${substitute(prelude)}${text}`
        if (_isLongRunning(text)) {
          const receiver = /receiver/.test(text)
          if (receiver) {
            if (fallbackReceiver) await _stop(fallbackReceiver), (fallbackReceiver = undefined)
            if (readmeReceiver) await _stop(readmeReceiver)
          }
          // A server of its own (port 0, its own data folder), so it stands beside the test's.
          const child = _spawn(script, cwd, receiver ? env : { ...env, COMPLIB_PORT: '0' })
          const line = await _until(child, /listening on \S+/, 90_000)
          if (!line.ok) failures.push(`${where}: never printed its listening line:\n${line.output}`)
          if (receiver && line.ok) readmeReceiver = child
          else await _stop(child)
          continue
        }
        // A request: its status is checked too (curl's -w prints it last).
        const request = /^curl /.test(text)
        const result = await _run(request ? `${script} -w '\\n%{http_code}'` : script, cwd, env, 120_000)
        const status = request ? Number(result.stdout.trim().split('\n').at(-1)) : 200
        if (result.code !== 0 || status < 200 || status > 299) failures.push(`${where}: exit ${result.code}, HTTP ${status}\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`)
      }
      if (readmeReceiver) await _stop(readmeReceiver)
      for (const f of createdFiles) rmSync(join(ROOT, f), { force: true })
      console.log(`README commands not run here:\n  ${skipped.join('\n  ')}`)
      expect(failures).toEqual([])
    }, 600_000)

    async function _createComponent(name: string): Promise<string> {
      const res = await fetch(`${server.url}/api/components`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) })
      return ((await res.json()) as { id: string }).id
    }

    /** The Node example receiver with the READMEs' secret, where no README's receiver is running. */
    async function _startReceiverFallback(): Promise<ChildProcess> {
      const child = _spawn(`node --import tsx src/main.ts --port ${receiverPort} --file ${scratch}/fallback.json`, join(ROOT, 'examples/receiver-node'), { ...process.env, WEBHOOK_SECRET: SECRET })
      const line = await _until(child, /listening on/, 30_000)
      if (!line.ok) throw new Error(`the fallback receiver did not start:\n${line.output}`)
      running.push(child)
      return child
    }

    function _spawn(script: string, cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
      // Its own process group: npm, sh, pnpm and the server stop together.
      const child = spawn('sh', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      running.push(child)
      return child
    }
  })
})

/** Each command with the folder it starts in and the variables set before it, as a reader's terminal would have them. */
function _withState(list: ReadmeCommand[]): { command: ReadmeCommand; cwd: string; prelude: string }[] {
  const out: { command: ReadmeCommand; cwd: string; prelude: string }[] = []
  let readme = ''
  let cwd = ROOT
  let vars: string[] = []
  let exported: string[] = []
  for (const command of list) {
    if (command.readme !== readme) ((readme = command.readme), (cwd = ROOT), (vars = []), (exported = []))
    // An inline span: a variation of a block's command, read with that block's exports.
    if (command.block < 0) {
      out.push({ command, cwd: startFolder(command), prelude: exported.map((v) => `${v}\n`).join('') })
      continue
    }
    out.push({ command, cwd, prelude: vars.map((v) => `${v}\n`).join('') })
    for (const words of splitCommand(command.text)) {
      if (words[0] === 'cd' && words[1] && statSync(resolve(cwd, words[1]), { throwIfNoEntry: false })?.isDirectory()) cwd = resolve(cwd, words[1])
    }
    if (/^[A-Z_]+=\S+$/.test(command.text)) vars.push(command.text)
    if (/^export [A-Z_]+=\S+$/.test(command.text)) (vars.push(command.text), exported.push(command.text))
    // A server or receiver keeps its terminal: what follows is typed in another one, at the root.
    if (_isLongRunning(command.text)) ((cwd = ROOT), (vars = []))
  }
  return out
}

function _isLongRunning(text: string): boolean {
  return /(^|&& )([A-Z_]+=\S+ )*npm start( --(?! push)|$)/.test(text) || /npm run example -- receiver-|python3 \S*receiver\.py/.test(text)
}

/** The README's opening paragraph (what the example is, and what it runs on). */
function _intro(readme: string): string {
  return readFileSync(join(ROOT, readme), 'utf8').split('\n\n')[1] ?? ''
}

function _run(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('sh', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => _kill(child, 'SIGKILL'), timeoutMs)
    child.on('exit', (code) => (clearTimeout(timer), done({ code, stdout, stderr })))
  })
}

function _until(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<{ ok: boolean; output: string }> {
  let output = ''
  return new Promise((done) => {
    const timer = setTimeout(() => done({ ok: false, output }), timeoutMs)
    const onData = (d: Buffer) => {
      output += d
      if (pattern.test(output)) (clearTimeout(timer), done({ ok: true, output }))
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (d) => (output += d))
    child.on('exit', (code) => (clearTimeout(timer), done({ ok: pattern.test(output), output: `${output}\n(exit ${code})` })))
  })
}

async function _stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  _kill(child, 'SIGTERM')
  const timer = setTimeout(() => _kill(child, 'SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}

function _kill(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal)
  } catch {
    // Already gone.
  }
}

function _freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}
