// The baseline of the read scenarios: bare node:http answering each path with
// the exact status, headers and body the complib server gave for it, recorded
// beforehand. Whatever the baseline costs is what any HTTP server pays.
import { createServer } from 'node:http'

process.once('message', (/** @type {{ routes: Array<[string, number, Record<string, string>, string]> }} */ message) => {
  const routes = new Map(message.routes.map(([path, status, headers, body]) => [path, { status, headers, body: Buffer.from(body, 'utf8') }]))
  const server = createServer((req, res) => {
    const route = routes.get(req.url ?? '')
    if (!route) return res.writeHead(404).end()
    res.writeHead(route.status, { ...route.headers, 'content-length': route.body.length }).end(route.body)
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => process.send?.({ port: /** @type {{ port: number }} */ (server.address()).port }))
})
process.on('disconnect', () => process.exit(0))
