import type { SourceContext } from '@complib/core'
import * as z from 'zod'
import { credential, HttpUrl } from '../_internal/config-fields'

/** What an InvenTree source is configured with: its server and an API token. */
export const InventreeConfig = z.strictObject({
  baseUrl: HttpUrl.meta({ description: 'The InvenTree server, e.g. https://inventree.example.com (the API is under /api/)' }),
  token: credential('a token', "An API token of an InvenTree user allowed to read parts, companies and stock (Settings → Account → API tokens); sent as 'Authorization: Token …'"),
})
export type InventreeConfig = z.infer<typeof InventreeConfig>
export type InventreeContext = SourceContext<InventreeConfig>

/** The server's root, without a trailing `/` or `/api`. */
export function serverBase(config: InventreeConfig): string {
  // Either the server or its API root may be configured: both mean the same server.
  return config.baseUrl.replace(/\/+$/, '').replace(/\/api$/, '')
}
