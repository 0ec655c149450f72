import { WebhookConfig, defineConnector } from '@complib/core'
import { DEFAULT_WEBHOOK_CODE } from './default-code'
import { deliver } from './deliver'
import { createSandbox } from './sandbox'
import { assertValidCron } from './schedule'

/**
 * The built-in "Components → Webhook" connector type. Its behaviour is the
 * connector code (`push(entities, config, helpers)`), run in the sandbox.
 *
 * `run` delivers one batch on its own: a sandbox for the call, signed sends
 * with the batch's delivery id. Push runs of the server take a faster path
 * for this type (executeRun: one sandbox and one throttle per run, and the
 * exact bytes of each batch kept before they leave), built from the same
 * sandbox, signing and delivery.
 */
export const webhookConnector = defineConnector<WebhookConfig>({
  type: 'webhook',
  title: 'Components → Webhook',
  description: 'Pushes every non-deleted component to a receiver URL as Standard-Webhooks-signed JSON batches of at most 250.',
  configSchema: WebhookConfig,
  defaultCode: DEFAULT_WEBHOOK_CODE,
  check: (config) => {
    if (typeof config.cron === 'string') assertValidCron(config.cron)
  },
  async run(batch, context) {
    if (context.signal.aborted) throw new Error('the run was cancelled')
    const sandbox = await createSandbox({ code: DEFAULT_WEBHOOK_CODE })
    try {
      await sandbox.push({ json: JSON.stringify(batch.entities), count: batch.entities.length }, context.config, {
        sendWebhook: async (url, sent) => {
          if (context.signal.aborted) throw new Error('the run was cancelled')
          const result = await deliver({ url, body: new TextEncoder().encode(`{"entities":${sent.json}}`), webhookId: batch.deliveryId, secrets: context.secrets, signal: context.signal })
          return result.retryAfter === undefined ? { ok: result.ok, status: result.status } : { ok: result.ok, status: result.status, retryAfter: result.retryAfter }
        },
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        log: context.log,
      })
    } finally {
      sandbox.dispose()
    }
  },
})
