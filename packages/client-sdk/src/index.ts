// client
export { createClient, type ClientOptions, type ComplibClient, type Health } from './client'

// errors
export { ComplibApiError } from './errors'
