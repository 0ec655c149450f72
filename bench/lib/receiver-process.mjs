// A receiver in its own process for benchmarks: reads each body, answers 202.
import { createServer } from 'node:http'

const server = createServer((req, res) => {
  req.on('data', () => {})
  req.on('end', () => res.writeHead(202).end())
})
server.keepAliveTimeout = 60_000
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }))
process.on('disconnect', () => process.exit(0))
