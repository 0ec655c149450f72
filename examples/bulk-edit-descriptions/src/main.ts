import { parseArgs } from 'node:util'
import { createClient, type ComponentStatus } from '@complib/client-sdk'
import { bulkEditDescriptions } from './bulk-edit'

const USAGE = `Bulk-edit component descriptions.

  npm run example -- bulk-edit-descriptions --match <regex> --set <description> [options]

  --match <regex>      which components (case-insensitive; tested against name, ipn and part numbers)
  --set <text>         the new description; {name}, {ipn}, {category}, {description} are filled in
  --dry-run            print what would change, change nothing
  --base-url <url>     the complib server (default $COMPLIB_URL or http://127.0.0.1:4000)
  --token <token>      an API token of yours, once the server has accounts (default $COMPLIB_TOKEN)
  --api-key <key>      the server's bootstrap key, when no token is given (default $COMPLIB_API_KEY)
  --comment <text>     why: recorded with each change, in its history and the audit trail
  --category <name>    only components of this category
  --tag <name>         only components with this tag
  --status <status>    only components in this status (draft, active, nrnd, obsolete)
  --concurrency <n>    PATCH requests in flight at most (default 4)`

async function main(argv: string[]): Promise<number> {
  // `npm run example -- bulk-edit-descriptions --flag` (pnpm start -- --flag) hands the script a leading `--`.
  const args = argv[0] === '--' ? argv.slice(1) : argv
  let values
  try {
    ;({ values } = parseArgs({
      args,
      options: {
        match: { type: 'string' },
        set: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        'base-url': { type: 'string', default: process.env.COMPLIB_URL ?? 'http://127.0.0.1:4000' },
        token: { type: 'string', default: process.env.COMPLIB_TOKEN },
        'api-key': { type: 'string', default: process.env.COMPLIB_API_KEY },
        comment: { type: 'string' },
        category: { type: 'string' },
        tag: { type: 'string' },
        status: { type: 'string' },
        concurrency: { type: 'string', default: '4' },
        help: { type: 'boolean', default: false },
      },
    }))
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  if (values.match === undefined || values.set === undefined) {
    console.error(`--match and --set are required\n\n${USAGE}`)
    return 2
  }
  let match: RegExp
  try {
    match = new RegExp(values.match, 'i')
  } catch (error) {
    console.error(`--match: ${(error as Error).message}`)
    return 2
  }
  const concurrency = Number(values.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    console.error('--concurrency: a whole number from 1 to 64')
    return 2
  }

  // The token wins over the key: changes then carry its owner's name.
  const client = createClient({ baseUrl: values['base-url'], token: values.token, apiKey: values['api-key'] })
  const summary = await bulkEditDescriptions(
    values.comment === undefined ? client : client.withComment(values.comment),
    { match, set: values.set, category: values.category, tag: values.tag, status: values.status as ComponentStatus | undefined, dryRun: values['dry-run'], concurrency },
    (line) => console.log(line),
  )
  for (const f of summary.failed) console.error(`${f.ipn}: ${f.reason}`)
  return summary.failed.length ? 1 : 0
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    // Typed errors of the client say which request failed and why (e.g. a wrong --base-url, a bad --status).
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  },
)
