import { userInfo } from 'node:os'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { Password, Role, Username, withChange, type ChangeContext, type Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import { hashPassword } from './auth/passwords'
import { isDatabaseUrl } from './copy-command'

export interface UsersAddOptions {
  username: string
  role: string
  displayName?: string | undefined
  /** Read the password from the first line of standard input instead of a prompt. */
  passwordStdin: boolean
  /** A data folder, or a postgres:// URL (`--database`). */
  place: string
  input?: NodeJS.ReadableStream | undefined
  output?: NodeJS.WritableStream | undefined
  print?: ((line: string) => void) | undefined
}

/**
 * `complib users add <name> --role <role>`: makes an account from the
 * server's machine, where no account exists yet to make it through the API
 * (the first admin), or to get back in when every admin is locked out. The
 * change is recorded as made on the command line by the system user running it.
 * Returns the exit code.
 */
export async function usersAdd(options: UsersAddOptions): Promise<number> {
  const print = options.print ?? console.log
  const username = Username.safeParse(options.username)
  if (!username.success) return _fail(print, `the user name ${JSON.stringify(options.username)} is not valid: ${username.error.issues[0]!.message}`)
  const role = Role.safeParse(options.role)
  if (!role.success) return _fail(print, `--role must be one of viewer, editor, admin (not ${JSON.stringify(options.role)})`)
  const password = Password.safeParse(await _readPassword(options))
  if (!password.success) return _fail(print, `the password is not valid: ${password.error.issues[0]!.message}`)

  const storage = await _open(options.place)
  try {
    const actor = { kind: 'cli' as const, id: null, name: _systemUser() }
    const change: ChangeContext = { actor, channel: 'cli', requestId: null, comment: null }
    const user = await withChange(change, () =>
      storage.transaction(async (tx) => {
        const made = await tx.users.create({
          username: username.data,
          displayName: options.displayName?.trim() || username.data,
          role: role.data,
          passwordHash: await hashPassword(password.data),
        })
        await tx.audit.append({ ...change, action: 'createUser', target: { type: 'user', id: made.id }, details: { username: made.username, role: made.role } })
        return made
      }),
    )
    print(`added ${user.username} (${user.role}) to ${isDatabaseUrl(options.place) ? new URL(options.place).host : resolve(options.place)}; sign in at the server's web page or POST /api/auth/login`)
    return 0
  } catch (error) {
    return _fail(print, (error as Error).message)
  } finally {
    await storage.close()
  }
}

async function _open(place: string): Promise<Storage> {
  return isDatabaseUrl(place) ? createPostgresStorage({ url: place }) : createSqliteStorage({ dir: resolve(place) })
}

/** The password: the first line of stdin, or typed at a prompt that does not echo it. */
async function _readPassword(options: UsersAddOptions): Promise<string> {
  const input = options.input ?? process.stdin
  if (options.passwordStdin) {
    const lines = createInterface({ input, crlfDelay: Infinity })
    for await (const line of lines) {
      lines.close()
      return line
    }
    return ''
  }
  const output = options.output ?? process.stderr
  if (!(input as NodeJS.ReadStream).isTTY) throw new Error('no terminal to ask for the password: pass --password-stdin and give it on standard input')
  return new Promise((resolvePassword) => {
    const rl = createInterface({ input, output, terminal: true })
    // Typed characters are not echoed: only the prompt is written.
    const write = (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput
    ;(rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      if (s.startsWith('Password')) write.call(rl, s)
    }
    rl.question('Password for the new account: ', (answer) => {
      rl.close()
      output.write('\n')
      resolvePassword(answer)
    })
  })
}

function _systemUser(): string {
  try {
    return userInfo().username
  } catch {
    return 'command line'
  }
}

function _fail(print: (line: string) => void, message: string): number {
  print(`complib users add: ${message}`)
  return 1
}
