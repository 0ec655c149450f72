/**
 * Runs the receiver: `WEBHOOK_SECRET=whsec_… npm run example -- receiver-node [--port 8080] [--host 127.0.0.1] [--file components.json] [--mirror]`.
 * `--mirror` (or `MIRROR=1`) also removes what a complete push did not carry.
 * The secret comes from the environment, not a flag, so it stays out of `ps`.
 */
import { parseArgs } from 'node:util'
import { createReceiver } from './receiver'

// `npm run example -- receiver-node --port 9000` (pnpm start -- …) passes the `--` on: skip it.
const args = process.argv.slice(2)
const { values } = parseArgs({
  args: args[0] === '--' ? args.slice(1) : args,
  options: {
    port: { type: 'string', default: process.env.PORT ?? '8080' },
    host: { type: 'string', default: '127.0.0.1' },
    file: { type: 'string', default: 'components.json' },
    mirror: { type: 'boolean', default: process.env.MIRROR === '1' },
  },
})
const secret = process.env.WEBHOOK_SECRET
if (!secret?.startsWith('whsec_')) {
  console.error('Set WEBHOOK_SECRET to the connector\'s signing secret (whsec_…).')
  process.exit(2)
}
const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port: not a port number: ${values.port}`)
  process.exit(2)
}

const receiver = await createReceiver({ secret, file: values.file, mirror: values.mirror, log: (line) => console.log(line) })
const url = await receiver.listen(port, values.host)
console.log(`listening on ${url}, ${values.mirror ? 'mirroring' : 'storing'} into ${values.file}`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void receiver.close().then(() => process.exit(0)))
