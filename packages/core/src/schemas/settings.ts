import * as z from 'zod'
import { Timestamp } from './common'

/**
 * Where pushes may go. By default everything but link-local and cloud
 * metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254): a connector
 * URL or connector code must not read a cloud server's instance credentials.
 * `allowedHosts`, when not empty, restricts pushes to the hosts and networks
 * listed (`hooks.example.com`, `*.example.com`, `10.0.0.0/8`, `::1`).
 */
export const OutboundPolicy = z
  .strictObject({
    blockMetadata: z.boolean().default(true).meta({ description: 'Refuse link-local and cloud metadata addresses' }),
    allowedHosts: z
      .array(z.string().trim().min(1).max(253))
      .max(200)
      .default([])
      .meta({ description: 'Host names (`*.` for subdomains), addresses or CIDR networks pushes may reach; empty: any but the blocked ones' }),
  })
  .meta({ id: 'OutboundPolicy' })
export type OutboundPolicy = z.output<typeof OutboundPolicy>

/** Server settings an admin changes through the API; every server sharing the database reads the same ones. */
export const Settings = z
  .object({
    auditRetentionDays: z.int().min(1).max(36500).nullable().meta({ description: 'Audit entries older than this are pruned daily (the pruning is an entry); null keeps all' }),
    outbound: OutboundPolicy,
    updatedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Settings' })
export type Settings = z.infer<typeof Settings>

/** Body of `PATCH /api/settings`. */
export const SettingsPatch = z
  .strictObject({
    auditRetentionDays: Settings.shape.auditRetentionDays,
    outbound: OutboundPolicy,
  })
  .partial()
  .meta({ id: 'SettingsPatch' })
export type SettingsPatch = z.output<typeof SettingsPatch>

export const DEFAULT_SETTINGS: Settings = { auditRetentionDays: null, outbound: { blockMetadata: true, allowedHosts: [] }, updatedAt: null }
