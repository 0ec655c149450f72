import { APP_VERSION } from './version'

/** The commands `complib` knows, each with its own `--help`. */
export type CommandName = 'serve' | 'push' | 'copy' | 'users'

interface CommandHelp {
  /** One line: what the command does. */
  summary: string
  /** Its forms, without the leading `complib`. */
  usage: string[]
  /** `[flag, what it does]`, in the order of the usage line. */
  options: [string, string][]
  /** Lines that work as written (a `#` comment may follow). */
  examples: string[]
  /** More to know, one paragraph. */
  notes?: string
}

export const COMMANDS: Record<CommandName, CommandHelp> = {
  serve: {
    summary: 'serves the library: the API under /api, the web interface at /, connector runs on their schedule',
    usage: [
      'serve [--host 127.0.0.1] [--port 4000] [--data ./data] [--database postgres://…] [--api-key KEY]',
      '      [--connector MODULE]… [--source MODULE]… [--allowed-origin ORIGIN]… [--allowed-host NAME]… [--trust-proxy]',
    ],
    options: [
      ['--host HOST', 'the address to listen on (COMPLIB_HOST; default 127.0.0.1). Off loopback every route but health and sign-in needs a credential'],
      ['--port PORT', 'the port, 0 for any free one (COMPLIB_PORT; default 4000)'],
      ['--data DIR', 'the data folder: the SQLite library, attachments, complib.config.json (COMPLIB_DATA_DIR; default ./data)'],
      ['--database URL', 'keep the library in PostgreSQL instead, where several servers can share it (COMPLIB_DATABASE_URL)'],
      ['--api-key KEY', 'a bootstrap admin credential that is no account, sent as "Authorization: Bearer KEY" (COMPLIB_API_KEY)'],
      ['--connector MODULE', 'load a connector package, by name or path (repeatable; also "connectors" in <data>/complib.config.json)'],
      ['--source MODULE', 'load a source package (defineSource), by name or path (repeatable; also "sources" in <data>/complib.config.json)'],
      ['--allowed-origin ORIGIN', 'let a trusted front end on another origin change the library, with CORS (repeatable)'],
      ['--allowed-host NAME', 'another name the server answers to on loopback, e.g. behind a local proxy (repeatable)'],
      ['--trust-proxy', 'believe X-Forwarded-For/-Proto from a reverse proxy in front (COMPLIB_TRUST_PROXY=1)'],
    ],
    examples: ['complib serve --port 4100 --data ~/parts-library', 'complib serve --database postgres://complib@db.example.com/complib --host 0.0.0.0'],
    notes: 'Flags win over the environment. SIGINT or SIGTERM stops the server cleanly. One server at a time per data folder.',
  },
  push: {
    summary: 'starts a push of a connector on a running server, and with --follow shows it until it ends',
    usage: ['push <connector id or name> [--follow] [--url http://127.0.0.1:4000] [--token TOKEN | --api-key KEY]'],
    options: [
      ['--follow, -f', 'show the run\'s progress until it ends; the exit code is 0 only when it succeeded'],
      ['--url URL', 'the server (default http://COMPLIB_HOST:COMPLIB_PORT, i.e. http://127.0.0.1:4000)'],
      ['--token TOKEN', 'an API token (clt_…); the push is recorded as its owner\'s (COMPLIB_TOKEN). Wins over --api-key'],
      ['--api-key KEY', 'the server\'s bootstrap key (COMPLIB_API_KEY)'],
    ],
    examples: ['complib push ERP --follow', 'COMPLIB_TOKEN=clt_… complib push ERP --url http://parts.example.com:4000'],
  },
  copy: {
    summary: 'copies a whole library, attachments included, between data folders and PostgreSQL databases',
    usage: ['copy --from <data folder | postgres://…> --to <data folder | postgres://…>'],
    options: [
      ['--from PLACE', 'the library to read: a data folder, or a postgres:// URL'],
      ['--to PLACE', 'where to write it: a new data folder, or an empty PostgreSQL database'],
    ],
    examples: ['complib copy --from ./data --to postgres://complib@127.0.0.1/complib', 'complib copy --from ./data --to ./data-copy'],
    notes: 'Stop a server using either data folder first: a data folder has one user at a time.',
  },
  users: {
    summary: 'adds an account from the server\'s machine: the first admin, or a way back in',
    usage: ['users add <name> --role viewer|editor|admin [--display-name NAME] [--password-stdin]', '      [--data ./data | --database postgres://…]'],
    options: [
      ['--role ROLE', 'viewer, editor or admin'],
      ['--display-name NAME', 'the name shown in the web interface and in history'],
      ['--password-stdin', 'read the password from the first line of standard input instead of asking'],
      ['--data DIR', 'the data folder (COMPLIB_DATA_DIR; default ./data); stop an embedded server first: its folder is locked'],
      ['--database URL', 'the PostgreSQL library (COMPLIB_DATABASE_URL); servers may keep running'],
    ],
    examples: ['complib users add ada --role admin   # asks for the password'],
  },
}

/** `complib --help`: every command in a few lines, and what they share. */
export const USAGE = `complib ${APP_VERSION}: a local service for electronic component libraries

Usage:
${(Object.keys(COMMANDS) as CommandName[]).flatMap((name) => COMMANDS[name].usage.map(_usageLine)).join('\n')}
  complib <command> --help   (or complib help <command>): one command's options and examples
  complib --version

Environment: COMPLIB_HOST, COMPLIB_PORT, COMPLIB_DATA_DIR, COMPLIB_DATABASE_URL, COMPLIB_API_KEY,
COMPLIB_TOKEN (push), COMPLIB_TRUST_PROXY=1 (flags win).
The library is one SQLite file in the data folder; --database keeps it in PostgreSQL
instead, where several servers can share it (attachments go in the database too).
Accounts: on loopback with no account nothing asks for credentials; once an account
exists, or off loopback, every route but health and sign-in does (a token or the
API key as "Authorization: Bearer …", or a web sign-in). "complib users add" makes
the first admin (stop an embedded server first: its data folder is locked).
--api-key is a bootstrap admin credential without an account. --trust-proxy believes
X-Forwarded-For/-Proto from a reverse proxy in front (Secure cookies behind TLS).
--connector loads a connector package (a name or a path; repeatable), as does
"connectors" in <data>/complib.config.json; --source and "sources" a source package.
Browsers: only pages of this server may change the library. --allowed-origin lets a
trusted front end elsewhere (e.g. https://parts.example.com) do so too, with CORS;
--allowed-host adds a name the server answers to on loopback (e.g. behind a local proxy).`

export function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name)
}

/** `complib <command> --help`: its usage, every option, and examples. */
export function commandHelp(name: CommandName): string {
  const help = COMMANDS[name]
  const width = Math.max(...help.options.map(([flag]) => flag.length))
  return [
    `complib ${name}: ${help.summary}`,
    '',
    'Usage:',
    ...help.usage.map(_usageLine),
    '',
    'Options:',
    ...help.options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    '  --help, -h'.padEnd(width + 2) + '  this text',
    ...(help.notes ? ['', help.notes] : []),
    '',
    help.examples.length > 1 ? 'Examples:' : 'Example:',
    ...help.examples.map((line) => `  ${line}`),
  ].join('\n')
}

/** A form of a command, or the rest of the one above it (indented to follow `complib `). */
function _usageLine(line: string): string {
  return line.startsWith(' ') ? `          ${line}` : `  complib ${line}`
}
