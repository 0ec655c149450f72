// signing (Standard Webhooks)
export { signDelivery, type SignOptions, type SignatureHeaders } from './sign'
