import { DEFAULT_SETTINGS, WebhookConfig, defineConnector, type ConnectorDefinition, type OutboundPolicy } from '@complib/core'
import { entitiesBody } from './_internal/body'
import { DEFAULT_WEBHOOK_CODE } from './default-code'
import { createDeliveryAgents, deliver, type DeliveryOutbound } from './deliver'
import { OutboundRefusedError, createOutboundGuard, type OutboundGuard, type Resolve } from './outbound-policy'
import { createSandbox, type EntitiesJson, type Sandbox, type SandboxOptions } from './sandbox'
import { DEFAULT_SANDBOX_MEMORY_MB, type SandboxLease, type SandboxPool } from './sandbox-pool'
import { assertValidCron } from './schedule'
import { createThrottle } from './throttle'

export interface WebhookConnectorOptions {
  fetch?: typeof fetch | undefined
  /** Per-request answer timeout (default 30 s). */
  requestTimeoutMs?: number | undefined
  /** Limits of the connector code (see createSandbox). */
  sandbox?: Omit<SandboxOptions, 'code'> | undefined
  /** The server's budget for sandboxes (createPushRunner makes one): a run's sandbox waits for its memory there. */
  sandboxPool?: SandboxPool | undefined
  /**
   * Where deliveries may go, read at the start of each run (createPushRunner
   * reads the storage's settings); left out, the default policy (link-local
   * and cloud metadata addresses refused).
   */
  outboundPolicy?: (() => OutboundPolicy | Promise<OutboundPolicy>) | undefined
  /** How host names are resolved for the policy (default node:dns; tests give their own). */
  resolve?: Resolve | undefined
}

/** What one run of the webhook type shares: its connector code in one sandbox, and one throttle. */
export interface WebhookSession {
  sandbox: Sandbox
  /** The sandbox's share of the server's sandbox memory, given back on dispose. */
  lease: SandboxLease | null
  throttle: <T>(fn: () => Promise<T>) => Promise<T>
  /** The run's outbound policy, and the connections opened under it. */
  outbound: DeliveryOutbound & { agents: { destroy(): void } }
}

/**
 * The built-in "Components → Webhook" connector type, run by the same
 * executor as every plugin type (executeRun). Its behaviour is the connector
 * code `push(entities, config, helpers)`, run in the sandbox: `setup` makes
 * one sandbox and one throttle for the run; `run` hands the code a batch as
 * the JSON bytes it was read as (decoded only if the code looks inside), and
 * `helpers.sendWebhook` signs and POSTs `{"entities": […]}` through the
 * throttle, after keeping the exact bytes (`context.keep`: free when the code
 * passed the batch on untouched), naming the run and batch in headers, and
 * recording every attempt. The outbound policy is read once per run: the
 * connector's URL is checked before the code starts, and every delivery as
 * its connection opens; a refusal fails the batch, and nothing is sent.
 *
 * @example
 * executeRun(runId, createWebhookConnector({ requestTimeoutMs: 10_000 }), { storage, signal })
 */
export function createWebhookConnector(options: WebhookConnectorOptions = {}): ConnectorDefinition<WebhookConfig, WebhookSession> {
  return defineConnector<WebhookConfig, WebhookSession>({
    type: 'webhook',
    title: 'Components → Webhook',
    description: 'Pushes every non-deleted component to a receiver URL as Standard-Webhooks-signed JSON batches of at most 250.',
    configSchema: WebhookConfig,
    defaultCode: DEFAULT_WEBHOOK_CODE,
    check: (config) => {
      if (typeof config.cron === 'string') assertValidCron(config.cron)
    },
    async setup(context) {
      const guard = createOutboundGuard(await (options.outboundPolicy?.() ?? DEFAULT_SETTINGS.outbound), options.resolve)
      // A URL the policy refuses fails the run before any code runs.
      await precheckDestination(guard, context.config.url)
      // The connector's own code (`PUT /api/connectors/:id/code`), else the default.
      // A push is never refused for memory: it waits for its share, or for the cancel or stop that ends the wait.
      const lease = (await options.sandboxPool?.push(options.sandbox?.memoryMb ?? DEFAULT_SANDBOX_MEMORY_MB, context.signal)) ?? null
      const sandbox = await createSandbox({ code: context.code ?? DEFAULT_WEBHOOK_CODE, ...options.sandbox }).catch((error: unknown) => {
        lease?.release()
        throw error
      })
      const agents = createDeliveryAgents()
      // A cancel or a stop ends the calls in progress too: code that never returns must not hold them up.
      context.signal.addEventListener('abort', () => sandbox.dispose(), { once: true })
      return { sandbox, lease, throttle: createThrottle(context.config), outbound: { guard, agents } }
    },
    dispose: (session) => {
      session.sandbox.dispose()
      session.lease?.release()
      session.outbound.agents.destroy()
    },
    async run(batch, context) {
      const { signal } = context
      const given: EntitiesJson = { bytes: batch.bytes, count: batch.count }
      // What the receiver acknowledged: the entities of each distinct body answered 2xx
      // (the code may send fewer than it was given; a resend of the same bytes counts once).
      const acknowledged: Buffer[] = []
      let sent = 0
      // Set when push() settles: a send the code left pending must not go out late.
      let finished = false
      // Deliveries under way; one already sent when push() settles ends before the batch does.
      const deliveries = new Set<Promise<unknown>>()
      // A destination the policy refused fails the batch, even if the code caught the error.
      let refused: OutboundRefusedError | null = null
      try {
        await context.session.sandbox.push(given, context.config, {
          sendWebhook: async (url, entities) => {
            if (signal.aborted) throw new Error('the run was cancelled')
            if (entities.count === 0 || entities.count > 250) throw new Error(`a delivery carries 1 to 250 entities, not ${entities.count}`)
            if (!/^https?:\/\//i.test(url)) throw new Error(`helpers.sendWebhook: ${url} is not an http(s) URL`)
            const body = entitiesBody(entities.bytes)
            // The exact bytes are on disk before they leave, so a resend after a crash is identical.
            if (finished) throw new Error(LATE_SEND)
            await context.keep(body)
            const delivery = context.session.throttle(() =>
              finished
                ? Promise.resolve(null)
                : deliver({
                    url,
                    body,
                    webhookId: batch.deliveryId,
                    secrets: context.secrets,
                    headers: runHeaders(batch.runId, batch.index, batch.batches),
                    timeoutMs: options.requestTimeoutMs,
                    signal,
                    fetch: options.fetch,
                    outbound: context.session.outbound,
                  }),
            )
            deliveries.add(delivery)
            const result = await delivery
              .finally(() => deliveries.delete(delivery))
              .catch((error: unknown) => {
                if (error instanceof OutboundRefusedError) refused ??= error
                throw error
              })
            if (!result) throw new Error(LATE_SEND)
            if (result.ok && !acknowledged.some((b) => b.equals(body))) {
              acknowledged.push(body)
              sent += entities.count
            }
            context.attempt({ status: result.status || null, durationMs: result.durationMs, error: result.error, retryAfter: result.retryAfter })
            return result.retryAfter === undefined ? { ok: result.ok, status: result.status } : { ok: result.ok, status: result.status, retryAfter: result.retryAfter }
          },
          sleep: (ms) => _sleep(ms, signal),
          log: context.log,
        })
      } catch (error) {
        throw refused ?? error
      } finally {
        finished = true
        // A send the code did not await may still be on the wire: nothing reaches the receiver after its run ended.
        await Promise.allSettled(deliveries)
      }
      if (refused) throw refused
      return { entitiesSent: sent }
    },
  })
}

/** The built-in webhook type with the default limits (what `GET /api/connectors/types` lists). */
export const webhookConnector = createWebhookConnector()

/**
 * Headers that name the run and the batch of a delivery (1-based: `complib-batch: 3/5`),
 * so a receiver can tell when it has seen a whole push and mirror the library,
 * deletions included (decisions 0715 and 0912). The body stays `{"entities": […]}`.
 */
export function runHeaders(runId: string, index: number, batches: number): Record<string, string> {
  return { 'complib-run-id': runId, 'complib-batch': `${index + 1}/${batches}` }
}

/**
 * Refuses a connector URL the policy refuses. A name that does not resolve
 * now is left to the deliveries, which report it as the receiver being
 * unreachable (and check it again as they connect).
 */
export async function precheckDestination(guard: OutboundGuard, url: unknown): Promise<void> {
  if (typeof url !== 'string') return
  await guard.check(url).catch((error: unknown) => {
    if (error instanceof OutboundRefusedError) throw error
  })
}

const LATE_SEND = 'this push() call has already finished'

function _sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('the run was cancelled'))
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(new Error('the run was cancelled'))
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
