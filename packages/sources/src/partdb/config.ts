import type { SourceContext } from '@complib/core'
import * as z from 'zod'
import { HttpUrl } from '../_internal/config-fields'

/** What a Part-DB source is configured with: its server and an API token (docs/api/authentication.md: `tcp_…`). */
export const PartdbConfig = z.strictObject({
  baseUrl: HttpUrl.max(500)
    .meta({ description: 'The address of your Part-DB server, e.g. https://parts.example.com (its API is under /api)' }),
  token: z
    .string()
    .max(300)
    .regex(/^tcp_[A-Za-z0-9]+$/, { error: 'a Part-DB API token, starting with tcp_' })
    .meta({ description: 'An API token (user settings → API tokens); the read-only scope is enough' }),
})
export type PartdbConfig = z.infer<typeof PartdbConfig>
export type PartdbContext = SourceContext<PartdbConfig>
