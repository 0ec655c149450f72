// signing (Standard Webhooks)
export { signDelivery, type SignOptions, type SignatureHeaders } from './sign'

// connector code
export { DEFAULT_WEBHOOK_CODE } from './default-code'
export { checkConnectorCode } from './check-code'

// schedule
export { assertValidCron, nextRunAt } from './schedule'
