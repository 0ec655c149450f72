// signing (Standard Webhooks)
export { signDelivery, type SignOptions, type SignatureHeaders } from './sign'

// connector code
export { DEFAULT_WEBHOOK_CODE } from './default-code'
export { checkConnectorCode } from './check-code'

// schedule
export { assertValidCron, nextRunAt } from './schedule'

// push runs
export { createSandbox, MAX_SLEEP_MS, type HostHelpers, type Sandbox, type SandboxOptions } from './sandbox'
export { DEFAULT_SANDBOX_MEMORY_MB, SANDBOX_OVERHEAD_MB, createSandboxPool, type SandboxLease, type SandboxPool, type SandboxPoolOptions } from './sandbox-pool'
export { createThrottle, type ThrottleOptions } from './throttle'
export { createDeliveryAgents, deliver, parseRetryAfter, type DeliveryAgents, type DeliveryOutbound, type DeliveryRequest, type DeliveryResult } from './deliver'
export { OutboundRefusedError, createOutboundGuard, type OutboundGuard, type Resolve, type ResolvedAddress } from './outbound-policy'
export { BATCH_SIZE, executeRun, type ExecuteOptions } from './execute-run'
export { CRON_ACTOR, createPushRunner, type DryRunResult, type PushRunner, type RunnerOptions } from './runner'

// the connector type (plugin contract)
export { createWebhookConnector, runHeaders, webhookConnector, type WebhookConnectorOptions, type WebhookSession } from './connector'
