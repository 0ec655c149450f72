// Shared by the suites that look at screens in the OS's dark scheme (dark-screens, sources).

/**
 * Run in the page: what is wrong in the dark scheme, as "where: what".
 * Each element with text of its own whose contrast with what is behind it
 * is under 4.5:1, and each large light surface (a panel left white).
 */
export const DARK_PROBLEMS = `(() => {
  const rgba = (s) => (s.match(/[\\d.]+/g) || []).map(Number)
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
  }
  // A colour as drawn: inside an element drawn inverted (the code editor's 'filter: invert(1) hue-rotate(180deg)'), inverted.
  const drawn = (el, c) => {
    for (let up = el; up; up = up.parentElement) if (getComputedStyle(up).filter.includes('invert(1)')) return c.map((v) => 255 - v)
    return c
  }
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgba(getComputedStyle(el).backgroundColor)
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return drawn(el, c.slice(0, 3))
    }
    return [255, 255, 255]
  }
  const where = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + ' "' + (el.textContent || el.value || '').trim().slice(0, 30) + '"'
  const shown = (el) => {
    const r = el.getBoundingClientRect()
    const s = getComputedStyle(el)
    return r.width > 2 && r.height > 2 && s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.1
  }
  const out = []
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg, img, [aria-hidden=true], .thumb')) continue
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
    const field = el.matches('input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden]), textarea, select')
    if ((!own && !field) || el.disabled || !shown(el)) continue
    if (field && !el.value && !el.matches('select')) continue
    const fg = lum(drawn(el, rgba(getComputedStyle(el).color).slice(0, 3)))
    const bg = lum(background(el))
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05)
    if (ratio < 4.5) out.push(where(el) + ': contrast ' + ratio.toFixed(2))
  }
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect()
    if (r.width * r.height < 40000 || !shown(el) || el.closest('img, svg, button, a, .button')) continue
    const c = rgba(getComputedStyle(el).backgroundColor)
    if ((c.length === 3 || (c.length === 4 && c[3] > 0.5)) && lum(drawn(el, c.slice(0, 3))) > 0.4) out.push(where(el) + ': light surface ' + getComputedStyle(el).backgroundColor)
  }
  return out
})()`
