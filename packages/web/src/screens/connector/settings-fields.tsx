import type { Connector } from '@complib/client-sdk'
import { cronInWords } from '../../ui/cron-words'
import { fieldError } from '../../ui/error-box'
import { dateTime, relativeTime } from '../../ui/format'
import type { Settings } from './settings'

/** Name, receiver, throttle, schedule (said in words, with the next run) and whether it is enabled. */
export function SettingsFields({ form, connector: c, error, onChange: set }: { form: Settings; connector: Connector | undefined; error: unknown; onChange: (patch: Partial<Settings>) => void }) {
  return (
    <div className="grid2">
      <label>
        Name
        <input value={form.name} onChange={(e) => set({ name: e.target.value })} required aria-invalid={fieldError(error, 'body.name') ? true : undefined} />
      </label>
      <label>
        Receiver URL
        <input value={form.url} type="url" placeholder="http://127.0.0.1:8080/hooks/components" onChange={(e) => set({ url: e.target.value })} required />
        {fieldError(error, 'body.config.url') && <span className="field-error">{fieldError(error, 'body.config.url')}</span>}
      </label>
      <label>
        Requests per second
        <input type="number" min={0.1} max={1000} step="any" value={form.requestsPerSecond} onChange={(e) => set({ requestsPerSecond: e.target.value })} />
        <span className="hint">Throttle: at most this many batches sent per second.</span>
      </label>
      <label>
        Concurrency
        <input type="number" min={1} max={64} value={form.concurrency} onChange={(e) => set({ concurrency: e.target.value })} />
        <span className="hint">Batches in flight at once.</span>
      </label>
      <label>
        Schedule (cron, optional)
        <input value={form.cron} placeholder="0 */6 * * *" onChange={(e) => set({ cron: e.target.value })} aria-describedby="cron-words" />
        <span className="hint" id="cron-words">
          {form.cron.trim() ? cronInWords(form.cron) : 'Empty: only when you press Push now.'}
          {c?.nextRunAt && form.cron.trim() === String(c.config.cron ?? '') ? ` Next run ${relativeTime(c.nextRunAt)} (${dateTime(c.nextRunAt)}).` : ''}
        </span>
        {fieldError(error, 'body.config.cron') && <span className="field-error">{fieldError(error, 'body.config.cron')}</span>}
      </label>
      <label className="check-label">
        <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled (scheduled runs happen)
      </label>
    </div>
  )
}
