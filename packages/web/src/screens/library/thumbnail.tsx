import { useState } from 'react'
import type { RowExtras } from '../../queries/library'

/**
 * A part's first image, small, loaded only when its row is in view
 * (decision 0445). An image kept elsewhere (a link) is not shown: the page's
 * Content-Security-Policy loads images from this server only.
 */
export function Thumbnail({ name, image }: { name: string; image: RowExtras['image'] }) {
  const [failed, setFailed] = useState(false)
  if (!image || failed || !image.url.startsWith('/')) return null
  return <img className="thumb" src={image.url} alt={`Image of ${name}`} loading="lazy" width={28} height={28} onError={() => setFailed(true)} />
}
