// Durable writes: PATCH at 16 clients on the library against the same on a
// library of 1,000 (the cost of size), how long writes block the server's
// event loop, and the worst stall of a request during a checkpoint. Every
// PATCH is acknowledged only once its WAL frames are on the disk (core README,
// "Durability"), so these are durable writes.
import type { BenchRow, HttpBenchContext } from './http'
import { createRandom } from './lib/library-data'
import { int, load, mb, median, pct, percentile, type LoadResult } from './lib/load'
import { startProbe, type ProbeSample } from './lib/probe'
import { copyLibrary, startServerProcess, type EventLoopDelay, type ServerProcess } from './lib/server'

const WRITERS = 16

/** Writes per second at 16 clients, size against 1,000, and the event-loop block per write. */
export async function benchWrites(ctx: HttpBenchContext, server: ServerProcess, ids: string[]): Promise<BenchRow[]> {
  const smallDir = copyLibrary(ctx.smallLibrary)
  const small = await startServerProcess(smallDir)
  try {
    const smallIds = ((await (await fetch(`${small.url}/api/components?limit=100000`)).json()) as Array<{ id: string }>).map((c) => c.id)
    const seconds = ctx.quick ? 2 : 5
    const a: LoadResult[] = []
    const b: LoadResult[] = []
    await _writeLoad(ctx, small, smallIds, 1)
    await _writeLoad(ctx, server, ids, 1)
    for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
      a.push(await _writeLoad(ctx, small, smallIds, seconds))
      b.push(await _writeLoad(ctx, server, ids, seconds))
    }
    // The last write must be there: an unchanged update writes nothing and would measure nothing.
    const probe = ids[0]!
    await fetch(`${server.url}/api/components/${probe}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description: 'bench probe' }) })
    const landed = ((await (await fetch(`${server.url}/api/components/${probe}`)).json()) as { description: string }).description
    if (landed !== 'bench probe') throw new Error('bench: a PATCH did not land')
    const show = (list: LoadResult[]) => list.map((l) => `${int(l.rps)} (server ${pct(l.cpu.server!)}, ${ctx.generator} ${pct(l.cpu.generator!)})`).join(', ')
    ctx.log(`durable writes: ${int(ctx.size)}: ${show(b)}; 1,000: ${show(a)} writes/s`)

    // The event loop, idle and then under the same write load, with a trivial request interleaved.
    await server.eventLoopDelay.start()
    await new Promise((r) => setTimeout(r, 1000))
    const idle = _block(await server.eventLoopDelay.stop())
    await server.eventLoopDelay.start()
    const health = startProbe(server.url)
    const loaded = await _writeLoad(ctx, server, ids, seconds)
    const busy = _block(await server.eventLoopDelay.stop())
    const probes = (await health.stop()).map((s) => s.ms)
    const cpuPerWrite = (loaded.cpu.server! * 1e6) / loaded.rps
    ctx.log(`event loop: idle p50 ${_ms(idle.p50Ms)}, p99 ${_ms(idle.p99Ms)}, max ${_ms(idle.maxMs)}; ${WRITERS} writers (${int(loaded.rps)}/s) p50 ${_ms(busy.p50Ms)}, p99 ${_ms(busy.p99Ms)}, max ${_ms(busy.maxMs)} over ${int(busy.samples)} samples`)

    const ratio = median(a.map((l) => l.rps)) / median(b.map((l) => l.rps))
    const rate = median(b.map((l) => l.rps))
    return [
      {
        scenario: `durable write: PATCH description, ${WRITERS} clients, ${int(ctx.size)} vs 1,000 components`,
        value: rate,
        subject: `${int(rate)} writes/s (p99 ${_ms(median(b.map((l) => l.p99Ms)))})`,
        baseline: `${int(median(a.map((l) => l.rps)))} writes/s at 1,000`,
        ratio: ratio.toFixed(2),
        target: `≥ 2,000/s; ratio ≤ 1.2${rate < 2000 || ratio > 1.2 ? ' (missed)' : ''}`,
      },
      {
        scenario: `event-loop block at ${WRITERS} concurrent writers (${int(ctx.size)} components; monitorEventLoopDelay in the server, 1 ms resolution, less the timer's own 1 ms)`,
        value: busy.p99Ms,
        subject: `p50 ${_ms(busy.p50Ms)}, p99 ${_ms(busy.p99Ms)}, max ${_ms(busy.maxMs)} at ${int(loaded.rps)} writes/s; server CPU ${cpuPerWrite.toFixed(0)} µs per write; GET /api/health meanwhile p50 ${_ms(percentile(probes, 0.5))}, p99 ${_ms(percentile(probes, 0.99))}`,
        baseline: `idle server: p50 ${_ms(idle.p50Ms)}, p99 ${_ms(idle.p99Ms)}, max ${_ms(idle.maxMs)}`,
        ratio: '—',
        target: `p99 ≤ 5 ms${busy.p99Ms > 5 ? ' (missed)' : ''}`,
      },
    ]
  } finally {
    await small.stop()
  }
}

/**
 * The worst stall of a request during a checkpoint: while 16 clients write,
 * the server is made to checkpoint (PASSIVE, the kind it runs by itself past
 * 16 MiB of WAL) again and again, and a trivial request is timed every 10 ms;
 * the row quotes the probes that overlapped a checkpoint.
 */
export async function benchCheckpoints(ctx: HttpBenchContext, server: ServerProcess, ids: string[]): Promise<BenchRow[]> {
  const checkpoints: Array<{ start: number; end: number; ms: number; walFrames: number; checkpointed: number }> = []
  let stop = false
  const health = startProbe(server.url)
  const forcing = (async () => {
    await new Promise((r) => setTimeout(r, 300)) // let the WAL fill first
    while (!stop) {
      // Its span as the server's worker ran it, not as this process saw the reply come back: a
      // reply waits for the server's busy loop, and that wait is the very stall being measured.
      const result = await server.checkpoint('PASSIVE')
      const start = result.startedAt - performance.timeOrigin
      checkpoints.push({ ...result, start, end: start + result.ms })
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  let writes: LoadResult
  let probes: ProbeSample[]
  try {
    writes = await _writeLoad(ctx, server, ids, ctx.quick ? 3 : 10)
  } finally {
    stop = true
    await forcing
    probes = await health.stop()
  }
  if (!checkpoints.length) throw new Error('bench: no checkpoint finished during the write load')
  const overlaps = (p: ProbeSample) => checkpoints.some((c) => p.at < c.end && p.at + p.ms > c.start)
  const during = probes.filter(overlaps).map((p) => p.ms)
  const outside = probes.filter((p) => !overlaps(p)).map((p) => p.ms)
  const longest = Math.max(...checkpoints.map((c) => c.ms))
  const walFrames = Math.max(...checkpoints.map((c) => c.walFrames))
  ctx.log(`checkpoints: ${checkpoints.length}, worker times ${checkpoints.map((c) => c.ms.toFixed(0)).join(', ')} ms; frames ${checkpoints.map((c) => c.checkpointed).join(', ')}`)
  return [
    {
      scenario: `checkpoint stall: PASSIVE checkpoints forced back to back during ${WRITERS}-client PATCH load at ${int(ctx.size)} components (${checkpoints.length} checkpoints, up to ${int(longest)} ms each on the worker; the WAL grew to ${int(walFrames)} frames, ${mb(walFrames * (24 + 4096))})`,
      value: during.length ? percentile(during, 0.99) : undefined,
      subject: `${during.length ? `GET /api/health during a checkpoint: p99 ${_ms(percentile(during, 0.99))}, max ${_ms(Math.max(...during))} (${during.length} probes)` : 'no probe overlapped one'}; the PATCHes over the round: p99 ${_ms(writes.p99Ms)}, max ${_ms(writes.maxMs)} at ${int(writes.rps)}/s`,
      baseline: outside.length ? `probes outside those checkpoints: p99 ${_ms(percentile(outside, 0.99))}, max ${_ms(Math.max(...outside))}` : '—',
      ratio: '—',
      target: 'report',
    },
  ]
}

let _round = 0

/** PATCHes of a description on random ids (a new value every time), 16 at a time. */
function _writeLoad(ctx: HttpBenchContext, target: ServerProcess, ids: string[], seconds: number): Promise<LoadResult> {
  const random = createRandom(11)
  const round = _round++
  const requests = Array.from({ length: 2000 }, () => ({
    method: 'PATCH' as const,
    path: `/api/components/${ids[Math.floor(random() * ids.length)]}`,
    body: JSON.stringify({ description: `bench write ${round}-{n}` }),
  }))
  return load({ generator: ctx.generator, url: target.url, connections: WRITERS, seconds, requests, watch: { server: target.pid } })
}

/** monitorEventLoopDelay samples the time between two 1 ms timer ticks: the block is what passes beyond the 1 ms. */
function _block(d: EventLoopDelay): EventLoopDelay {
  const less = (ms: number) => Math.max(0, ms - 1)
  return { p50Ms: less(d.p50Ms), p99Ms: less(d.p99Ms), maxMs: less(d.maxMs), samples: d.samples }
}

const _ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`
