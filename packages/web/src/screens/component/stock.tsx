import type { Component } from '@complib/client-sdk'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { api } from '../../api'
import { useCan } from '../../queries/auth'
import { locationQueries, stockChanged, stockQueries } from '../../queries/locations'
import { ErrorBox } from '../../ui/error-box'
import { count } from '../../ui/format'

/** How many of the component each location holds, and a form to set one. */
export function Stock({ component }: { component: Component }) {
  const queryClient = useQueryClient()
  const stock = useQuery(stockQueries.forComponent(component.id))
  const writer = useCan('library:write')
  const locations = useQuery({ ...locationQueries.options(), enabled: writer })
  const [locationId, setLocationId] = useState('')
  const [quantity, setQuantity] = useState('0')
  const set = useMutation({
    mutationFn: ({ loc, qty }: { loc: string; qty: number }) => api().stock.set(component.id, loc, qty),
    onSuccess: () => void stockChanged(queryClient, component.id),
  })
  const id = useId()
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Stock</h2>
      <ErrorBox error={stock.error ?? set.error} />
      <table className="simple">
        <thead>
          <tr>
            <th scope="col">Location</th>
            <th scope="col">Quantity</th>
          </tr>
        </thead>
        <tbody>
          {stock.data?.length === 0 && (
            <tr>
              <td colSpan={2} className="muted">
                Not stocked anywhere.
              </td>
            </tr>
          )}
          {stock.data?.map((s) => (
            <tr key={s.locationId}>
              <td>{s.path}</td>
              <td>{count(s.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {writer && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault()
            if (locationId) set.mutate({ loc: locationId, qty: Number(quantity) })
          }}
        >
          <label>
            Location
            <select value={locationId} onChange={(e) => setLocationId(e.target.value)}>
              <option value="">Choose…</option>
              {locations.data?.items.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Quantity
            <input type="number" min={0} value={quantity} onChange={(e) => setQuantity(e.target.value)} />
          </label>
          <button type="submit" disabled={!locationId || set.isPending}>
            Set stock
          </button>
        </form>
      )}
    </section>
  )
}
