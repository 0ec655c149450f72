import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { commandHelp, COMMANDS, USAGE, type CommandName } from '../src/cli-help'
import { runCli } from './cli-process'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('complib serve', () => {
  it('starts on an empty data folder and answers /api/health', async () => {
    const data = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(data)
    const { child, done } = runCli(['serve', '--port', '0', '--data', data], {}, /listening on (http:\/\/\S+)/)
    const { match } = await done
    expect(match).toBeTruthy()
    const res = await fetch(`${match![1]}/api/health`)
    expect(res.status).toBe(200)
    const exited = new Promise((r) => child.on('exit', r))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('reads host, port and data folder from COMPLIB_* variables', async () => {
    const data = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(data)
    const { child, done } = runCli(['serve'], { COMPLIB_HOST: '127.0.0.1', COMPLIB_PORT: '0', COMPLIB_DATA_DIR: data }, /listening on (http:\/\/\S+)/)
    const { match } = await done
    expect(match![1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    child.kill('SIGTERM')
  })

  it('off loopback, asks every route but health for a credential, even with no account and no key', async () => {
    const data = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(data)
    const { child, done } = runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data', data], { COMPLIB_API_KEY: '' }, /listening on http:\/\/\S+:(\d+)/)
    const { match } = await done
    try {
      expect((await fetch(`http://127.0.0.1:${match![1]}/api/health`)).status).toBe(200)
      expect((await fetch(`http://127.0.0.1:${match![1]}/api/components`)).status).toBe(401)
    } finally {
      child.kill('SIGTERM')
    }
  })

  it('users add makes the first admin from the command line; the server then asks for credentials and accepts a sign-in', async () => {
    const data = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(data)
    const added = await runCli(['users', 'add', 'Ada', '--role', 'admin', '--password-stdin', '--data', data], {}, undefined, 'correct horse battery\n').done
    expect(added.code, added.err + added.out).toBe(0)
    expect(added.out).toMatch(/added ada \(admin\)/)
    expect(added.out + added.err).not.toContain('correct horse')
    const again = await runCli(['users', 'add', 'ada', '--role', 'admin', '--password-stdin', '--data', data], {}, undefined, 'another password\n').done
    expect(again.code).toBe(1)
    const bad = await runCli(['users', 'add', 'bob', '--role', 'owner', '--password-stdin', '--data', data], {}, undefined, 'another password\n').done
    expect(bad.code).toBe(1)
    expect(bad.out).toMatch(/--role must be one of viewer, editor, admin/)
    const { child, done } = runCli(['serve', '--port', '0', '--data', data], {}, /listening on (http:\/\/\S+)/)
    const { match } = await done
    try {
      expect((await fetch(`${match![1]}/api/components`)).status).toBe(401)
      const login = await fetch(`${match![1]}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'ada', password: 'correct horse battery' }) })
      expect(login.status).toBe(200)
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
      const audit = (await (await fetch(`${match![1]}/api/audit?action=createUser`, { headers: { cookie } })).json()) as Array<{ actor: { kind: string }; channel: string }>
      expect(audit[0]).toMatchObject({ actor: { kind: 'cli' }, channel: 'cli' })
    } finally {
      child.kill('SIGTERM')
    }
  })

  it('loads a connector package named by --connector, and refuses to start on one that exports none', async () => {
    const data = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(data)
    const folder = fileURLToPath(new URL('../../../examples/custom-connector', import.meta.url))
    const { child, done } = runCli(['serve', '--port', '0', '--data', data, '--connector', folder], {}, /listening on (http:\/\/\S+)/)
    const { match } = await done
    const types = (await (await fetch(`${match![1]}/api/connectors/types`)).json()) as Array<{ type: string }>
    expect(types.map((t) => t.type)).toEqual(['webhook', 'json-folder'])
    const exited = new Promise((r) => child.on('exit', r))
    child.kill('SIGTERM')
    await exited
    const notAConnector = join(data, 'nothing.mjs')
    writeFileSync(notAConnector, 'export const x = 1\n')
    const refused = await runCli(['serve', '--port', '0', '--data', data, '--connector', notAConnector]).done
    expect(refused.code).toBe(2)
    expect(refused.err).toMatch(/nothing\.mjs" exports no connector/)
  })

  it('rejects a port that is not a number', async () => {
    const { done } = runCli(['serve', '--port', 'eighty'])
    const { code, err } = await done
    expect(code).toBe(2)
    expect(err).toMatch(/--port must be a whole number/)
  })

  it('an unknown flag, --data naming a file, a port in use: one line saying what to do, exit 2, nothing created', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(parent)
    const unknown = await runCli(['serve', '--prot', '4000', '--data', join(parent, 'a')]).done
    expect(unknown.code).toBe(2)
    expect(unknown.err.trim()).toBe('complib: unknown option --prot; see complib --help')

    const file = join(parent, 'library.txt')
    writeFileSync(file, 'not a folder')
    const onFile = await runCli(['serve', '--port', '0', '--data', file]).done
    expect(onFile.code).toBe(2)
    expect(onFile.err.trim().split('\n')).toHaveLength(1)
    expect(onFile.err).toMatch(/--data .*library\.txt is a file, not a folder/)

    const taken = createServer()
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r))
    const port = (taken.address() as AddressInfo).port
    try {
      const inUse = await runCli(['serve', '--port', String(port), '--data', join(parent, 'b')]).done
      expect(inUse.code).toBe(2)
      expect(inUse.err.trim()).toBe(`complib: port ${port} on 127.0.0.1 is in use (another complib?); stop that server or pass --port <n>`)
    } finally {
      taken.close()
    }
    // Nothing was created for any of them.
    expect(readdirSync(parent)).toEqual(['library.txt'])
  })
})

describe('complib push', () => {
  it('starts a run on a running server and follows it to the end', async () => {
    const { startServer } = await import('../src/server')
    const { startReceiver } = await import('@complib/test-support/receiver')
    const data = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(data)
    const server = await startServer({ port: 0, dataDir: data, log: () => {} })
    const receiver = await startReceiver()
    try {
      for (let i = 0; i < 300; i++) await server.storage.components.create({ name: `p${i}` })
      const c = await server.storage.connectors.create({ type: 'webhook', name: 'Shop', enabled: true, config: { url: receiver.url, requestsPerSecond: 100, concurrency: 2, cron: null }, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', code: null })
      const { done } = runCli(['push', 'shop', '--follow', '--url', server.url])
      const { code, err } = await done
      expect(err).toMatch(/run run_\w+ started: 300 components in 2 batches/)
      expect(err).toMatch(/\] 2\/2 batches/)
      expect(err).toMatch(/succeeded: 2\/2 batches delivered, 300 components sent, 0 batches failed/)
      expect(code).toBe(0)
      expect(receiver.received).toHaveLength(2)
      const unknown = await runCli(['push', 'con_01JD7W3T9X4QF5B8S2M6K0N1PZ', '--url', server.url]).done
      expect(unknown.code).toBe(1)
      expect(unknown.err).toMatch(/404/)
      void c
    } finally {
      await receiver.close()
      await server.close()
    }
  })

  it('sends --token or COMPLIB_TOKEN as the bearer credential, in place of the API key when both are given', async () => {
    const { startServer } = await import('../src/server')
    const { startReceiver } = await import('@complib/test-support/receiver')
    const data = mkdtempSync(join(tmpdir(), 'complib-cli-'))
    dirs.push(data)
    const server = await startServer({ port: 0, dataDir: data, apiKey: 'bootstrap-key', log: () => {} })
    const receiver = await startReceiver()
    try {
      await server.storage.components.create({ name: 'p1' })
      await server.storage.connectors.create({ type: 'webhook', name: 'Shop', enabled: true, config: { url: receiver.url, requestsPerSecond: 100, concurrency: 1, cron: null }, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', code: null })
      // A token as a person makes one: an account (by the API key), a sign-in, then POST /api/tokens with the session.
      const post = (path: string, body: unknown, headers: Record<string, string>) =>
        fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      expect((await post('/api/users', { username: 'ada', password: 'a long passphrase', role: 'editor' }, { authorization: 'Bearer bootstrap-key' })).status).toBe(201)
      const login = await post('/api/auth/login', { username: 'ada', password: 'a long passphrase' }, {})
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
      const { token } = (await (await post('/api/tokens', { name: 'cli', scope: 'write' }, { cookie })).json()) as { token: string }

      const wrong = await runCli(['push', 'shop', '--url', server.url, '--token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, '--api-key', 'bootstrap-key']).done
      expect(wrong.code).toBe(1)
      expect(wrong.err).toMatch(/401: the token is unknown/)
      const byEnv = await runCli(['push', 'shop', '--follow', '--url', server.url], { COMPLIB_TOKEN: token }).done
      expect(byEnv.err).toMatch(/succeeded: 1\/1 batches delivered/)
      expect(byEnv.code).toBe(0)
      const byKey = await runCli(['push', 'shop', '--follow', '--url', server.url], { COMPLIB_API_KEY: 'bootstrap-key' }).done
      expect(byKey.code).toBe(0)
      const runs = (await server.storage.audit.list({ limit: 100 })).items.filter((e) => e.target?.type === 'connector')
      expect(runs.map((e) => e.actor.kind)).toEqual(['api-key', 'token'])
    } finally {
      await receiver.close()
      await server.close()
    }
    // Three commands, each a process starting from source.
  }, 60_000)
})

describe('complib <command> --help from the command line', () => {
  it.each(Object.keys(COMMANDS) as CommandName[])('complib %s --help prints that command\'s text, not the global one, and exits 0', async (name) => {
    const { code, out } = await runCli([name, '--help']).done
    expect(code).toBe(0)
    expect(out.trim()).toBe(commandHelp(name))
  })

  it('complib help push is the same; a push without a connector says what is missing above push\'s text and exits 2', async () => {
    const help = await runCli(['help', 'push']).done
    expect([help.code, help.out.trim()]).toEqual([0, commandHelp('push')])
    const bad = await runCli(['push']).done
    expect(bad.code).toBe(2)
    expect(bad.err).toContain(`complib push: name the connector (its id or name)\n\n${commandHelp('push')}`)
    const global = await runCli(['--help']).done
    expect([global.code, global.out.trim()]).toEqual([0, USAGE])
  })
})
