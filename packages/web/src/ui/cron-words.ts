/**
 * A five-field cron expression in words, for the common shapes
 * (`0 *\/6 * * *` → "every 6 hours, at minute 0"); anything else is shown as is.
 */
export function cronInWords(cron: string): string {
  const parts = cron.trim().split(/\s+/)
  if (parts.length !== 5) return `cron “${cron}”`
  const [min, hour, dom, mon, dow] = parts as [string, string, string, string, string]
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
  const at = (h: string, m: string) => `${h.padStart(2, '0')}:${m.padStart(2, '0')}`
  const everyDay = dom === '*' && mon === '*'
  if (everyDay && dow === '*') {
    if (min === '*' && hour === '*') return 'every minute'
    if (/^\*\/\d+$/.test(min) && hour === '*') return `every ${min.slice(2)} minutes`
    if (/^\d+$/.test(min) && hour === '*') return `every hour, at minute ${min}`
    if (/^\d+$/.test(min) && /^\*\/\d+$/.test(hour)) return `every ${hour.slice(2)} hours, at minute ${min}`
    if (/^\d+$/.test(min) && /^\d+$/.test(hour)) return `every day at ${at(hour, min)}`
  }
  if (everyDay && /^\d$/.test(dow) && /^\d+$/.test(min) && /^\d+$/.test(hour)) return `every ${days[Number(dow) % 7]} at ${at(hour, min)}`
  if (dom !== '*' && /^\d+$/.test(dom) && mon === '*' && dow === '*' && /^\d+$/.test(min) && /^\d+$/.test(hour)) return `on day ${dom} of every month at ${at(hour, min)}`
  return `cron “${cron}”`
}
