import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { SqliteStorage } from '@complib/core/sqlite'
import { commandHelp, isCommand, USAGE } from './cli-help'
import { APP_VERSION } from './version'

// The server and the commands are imported when a command runs, not before: `complib --help`
// and `complib <command> --help` answer without loading the storage engines (decision 0022).

/** Entry of the `complib` command; returns the exit code (it keeps running while serving). */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        database: { type: 'string' },
        'api-key': { type: 'string' },
        token: { type: 'string' },
        connector: { type: 'string', multiple: true },
        source: { type: 'string', multiple: true },
        'allowed-origin': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        url: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        follow: { type: 'boolean', short: 'f' },
        role: { type: 'string' },
        'display-name': { type: 'string' },
        'password-stdin': { type: 'boolean' },
        'trust-proxy': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    })
  } catch (error) {
    console.error(`complib: ${_argumentError(error as NodeJS.ErrnoException)}; see complib --help`)
    return 2
  }
  const { values, positionals } = parsed
  if (values.version) {
    console.log(APP_VERSION)
    return 0
  }
  const command = positionals[0]
  // `complib push --help` and `complib help push`: that command's own text.
  const helpOf = command === 'help' ? positionals[1] : values.help ? command : undefined
  if (isCommand(helpOf)) {
    console.log(commandHelp(helpOf))
    return 0
  }
  if (values.help || !command || command === 'help') {
    console.log(USAGE)
    return values.help || (command === 'help' && !helpOf) ? 0 : 2
  }
  if (command === 'copy') {
    if (!values.from || !values.to) {
      console.error(`complib copy: give both --from and --to (a data folder or a postgres:// URL)\n\n${commandHelp('copy')}`)
      return 2
    }
    const { copyCommand } = await import('./copy-command')
    try {
      await copyCommand(values.from, values.to)
      return 0
    } catch (error) {
      console.error(`complib copy: ${(error as Error).message}`)
      return 1
    }
  }
  if (command === 'serve' || command === 'users') {
    const refusal = _emptyDataRefusal(values.data, env.COMPLIB_DATA_DIR)
    if (refusal) {
      console.error(`complib: ${refusal}`)
      return 2
    }
  }
  if (command === 'users') {
    const [, action, username] = positionals
    if (action !== 'add' || !username || !values.role) {
      console.error(`complib users: say \`complib users add <name> --role viewer|editor|admin\`\n\n${commandHelp('users')}`)
      return 2
    }
    const [{ usersAdd }, { DEFAULTS }] = await Promise.all([import('./users-command'), import('./server')])
    return usersAdd({
      username,
      role: values.role,
      displayName: values['display-name'],
      passwordStdin: values['password-stdin'] ?? false,
      place: values.database ?? (env.COMPLIB_DATABASE_URL || undefined) ?? values.data ?? env.COMPLIB_DATA_DIR ?? DEFAULTS.dataDir,
    })
  }
  if (command === 'push') {
    const connector = positionals[1]
    if (!connector) {
      console.error(`complib push: name the connector (its id or name)\n\n${commandHelp('push')}`)
      return 2
    }
    const [{ pushCommand }, { DEFAULTS }] = await Promise.all([import('./push-command'), import('./server')])
    const host = env.COMPLIB_HOST ?? DEFAULTS.host
    return pushCommand({
      connector,
      baseUrl: values.url ?? `http://${host.includes(':') ? `[${host}]` : host}:${env.COMPLIB_PORT ?? DEFAULTS.port}`,
      // A flag wins over the environment; a token over the key (flag or not), as in the client.
      token: values.token ?? env.COMPLIB_TOKEN,
      apiKey: values['api-key'] ?? env.COMPLIB_API_KEY,
      follow: values.follow ?? false,
    })
  }
  if (command !== 'serve') {
    console.error(`complib: unknown command "${command}"\n\n${USAGE}`)
    return 2
  }

  const [{ DEFAULTS, startServer }, { SQLITE_STORAGE_NAME }, { createLogOnce }] = await Promise.all([
    import('./server'),
    import('@complib/core/sqlite'),
    import('./http/node-listener'),
  ])
  const portText = values.port ?? env.COMPLIB_PORT ?? String(DEFAULTS.port)
  const port = Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`complib: --port must be a whole number from 0 to 65535, not "${portText}"`)
    return 2
  }
  let running
  try {
    running = await startServer({
      host: values.host ?? env.COMPLIB_HOST ?? DEFAULTS.host,
      port,
      dataDir: values.data ?? env.COMPLIB_DATA_DIR ?? DEFAULTS.dataDir,
      databaseUrl: values.database ?? (env.COMPLIB_DATABASE_URL || undefined),
      apiKey: values['api-key'] ?? env.COMPLIB_API_KEY,
      connectors: values.connector,
      sources: values.source,
      allowedOrigins: values['allowed-origin'],
      allowedHosts: values['allowed-host'],
      trustProxy: values['trust-proxy'] ?? env.COMPLIB_TRUST_PROXY === '1',
    })
  } catch (error) {
    console.error(`complib: ${(error as Error).message}`)
    return 2
  }
  console.log(`complib ${APP_VERSION} listening on ${running.url} (API at ${running.url}/api, docs at ${running.url}/api/docs)`)
  const stop = (signal: string) => {
    console.log(`complib: ${signal}, saving and stopping…`)
    running.close().then(
      () => process.exit(0),
      (error) => {
        console.error('complib: failed to stop cleanly', error)
        process.exit(1)
      },
    )
  }
  // The last resort: every write is durable before it is acknowledged, so staying up is
  // safe. A stray error is a bug to report (once per cause), not a reason to drop every
  // client's connection; requests are guarded before this (http/node-listener.ts).
  const report = createLogOnce((message, cause) => console.error(message, cause))
  process.on('unhandledRejection', (reason) => report('complib: unhandled rejection (a bug, please report it)', reason))
  process.on('uncaughtException', (error) => report('complib: uncaught exception (a bug, please report it)', error))
  process.once('SIGINT', () => stop('SIGINT'))
  process.once('SIGTERM', () => stop('SIGTERM'))
  if (env.COMPLIB_BENCH_HOOKS === '1' && process.send && running.storage.name === SQLITE_STORAGE_NAME) _benchHooks(running.storage as SqliteStorage)
  return new Promise<number>(() => {})
}

/**
 * An empty data folder (`--data ''`, or COMPLIB_DATA_DIR set to nothing) would
 * resolve to the working directory, and the database and attachments would be
 * made there, next to whatever it holds: refused, as any other bad option.
 * The flag wins over the variable, so only the one in effect is checked.
 */
function _emptyDataRefusal(flag: string | undefined, variable: string | undefined): string | undefined {
  const [value, name] = flag !== undefined ? [flag, '--data'] : [variable, 'COMPLIB_DATA_DIR']
  if (value === undefined || value.trim() !== '') return undefined
  return `${name} is empty: name a data folder (such as ./data), or leave ${name} out for the default ./data; an empty one would put the database in the working directory`
}

/** One line for what parseArgs refused, instead of Node's paragraph about positionals. */
function _argumentError(error: NodeJS.ErrnoException): string {
  const option = /'(-[^']*)'/.exec(error.message)?.[1]
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option ${option}`
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) return `option ${option.split(' ')[0]} needs a value`
  return error.message.split('\n')[0]!
}

const code = await main(process.argv.slice(2))
process.exit(code)

/**
 * For the bench only (bench/lib/server.ts; decision 1303): with
 * COMPLIB_BENCH_HOOKS=1 and an IPC channel, the parent can sample the event
 * loop's delay (monitorEventLoopDelay, 1 ms resolution) between two messages,
 * and force a checkpoint, answered with what it did and when it started.
 * Nothing listens otherwise.
 */
function _benchHooks(storage: SqliteStorage): void {
  const delay = monitorEventLoopDelay({ resolution: 1 })
  process.channel?.unref()
  process.on('message', (m: { id: number; op: 'delay-start' | 'delay-stop' | 'checkpoint'; mode?: 'PASSIVE' | 'TRUNCATE' }) => {
    const reply = (body: object) => process.send?.({ id: m.id, ...body })
    if (m.op === 'delay-start') return (delay.reset(), delay.enable(), reply({}))
    if (m.op === 'delay-stop') {
      delay.disable()
      const ms = (ns: number) => ns / 1e6
      return reply({ p50Ms: ms(delay.percentile(50)), p99Ms: ms(delay.percentile(99)), maxMs: ms(delay.max), samples: delay.count })
    }
    // When it was handed to the checkpointer, on the clock all processes share (the reply may wait for a busy loop).
    const startedAt = performance.timeOrigin + performance.now()
    Promise.resolve(storage.database.checkpoint(m.mode)).then(
      (result) => reply({ result, startedAt }),
      (error: unknown) => reply({ error: String(error) }),
    )
  })
}
