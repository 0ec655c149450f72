// A trivial request sent every few milliseconds on a kept-alive connection of
// its own while other load runs: its latency is how long the server's event
// loop kept it waiting.
import { Agent, get } from 'node:http'

export interface ProbeSample {
  /** When the request was sent (performance.now() of this process). */
  at: number
  ms: number
}

/** Starts probing `path` every `everyMs`; `stop()` resolves with every sample. */
export function startProbe(url: string, path = '/api/health', everyMs = 10): { stop(): Promise<ProbeSample[]> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const samples: ProbeSample[] = []
  let done = false
  const loop = (async () => {
    while (!done) {
      const at = performance.now()
      const status = await _get(`${url}${path}`, agent)
      if (status !== 200) throw new Error(`bench: probe ${path} answered ${status}`)
      samples.push({ at, ms: performance.now() - at })
      await new Promise((r) => setTimeout(r, everyMs))
    }
  })()
  return {
    stop: async () => {
      done = true
      await loop
      agent.destroy()
      return samples
    },
  }
}

function _get(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode!))
      res.on('error', reject)
    }).on('error', reject)
  })
}
