import type { Component } from '@complib/client-sdk'
import { Attachments } from './attachments'
import { History } from './history'
import { Stock } from './stock'

/** What hangs off a saved component: attachments, stock per location, history. */
export function ComponentExtras({ component }: { component: Component }) {
  return (
    <div className="extras">
      <Attachments component={component} />
      <Stock component={component} />
      <History component={component} />
    </div>
  )
}
