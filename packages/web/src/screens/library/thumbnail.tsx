import type { Component } from '@complib/client-sdk'
import { useState } from 'react'

/**
 * A part's image, small: its first image attachment, through the server's
 * image route (decision 0445), loaded only when the row is in view. A part
 * without one shows nothing.
 */
export function Thumbnail({ component }: { component: Component }) {
  const [missing, setMissing] = useState(false)
  if (missing) return null
  return <img className="thumb" src={`/api/components/${encodeURIComponent(component.id)}/image`} alt="" loading="lazy" width={28} height={28} onError={() => setMissing(true)} />
}
