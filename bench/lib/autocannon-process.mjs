// autocannon in a process of its own, so that the bench process's own work
// (and autocannon's CPU) is measured apart from the server's: the parent sends
// the options, this process answers with the round's figures and exits.
import autocannon from 'autocannon'

process.once('message', async (/** @type {{ url: string, connections: number, seconds: number, requests: Array<{ method: string, path: string, body?: string }>, headers?: Record<string, string> }} */ o) => {
  try {
    let i = 0
    let n = 0
    const result = await autocannon({
      url: o.url,
      connections: o.connections,
      duration: o.seconds,
      // Sent with every request: setupRequest's `req.headers` starts from these.
      ...(o.headers ? { headers: o.headers } : {}),
      requests: [
        {
          setupRequest: (req) => {
            const r = o.requests[i++ % o.requests.length]
            if (r.body === undefined) return { ...req, method: r.method, path: r.path }
            return { ...req, method: r.method, path: r.path, body: r.body.replaceAll('{n}', String(n++)), headers: { ...req.headers, 'content-type': 'application/json' } }
          },
        },
      ],
    })
    process.send({
      rps: result.requests.total / (result.duration || o.seconds),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    })
  } catch (error) {
    process.send({ error: String(error?.stack ?? error) })
  }
  process.disconnect()
})
