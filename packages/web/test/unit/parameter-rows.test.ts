import { ComplibApiError, type Problem } from '@complib/client-sdk'
import { describe, expect, it } from 'vitest'
import { applyFreeRows, bindTemplates, freeRowIndexes, parameterErrors, parametersError, setTemplateValue } from '../../src/screens/component/parameter-rows'
import type { CategoryTemplate } from '../../src/queries/templates'
import { plural, siNumber } from '../../src/ui/format'

const template = (name: string, id: string): CategoryTemplate => ({
  categoryId: 'cat_1',
  parameterTypeId: id,
  parameterType: name,
  unit: null,
  kind: 'text',
  choices: null,
  required: false,
  isValue: false,
})
const row = (type: string, value: string) => ({ type, value, unit: '' })
const refused = (paths: string[]) =>
  new ComplibApiError({ type: 'about:blank', title: 'Bad', status: 400, code: 'VALIDATION_FAILED', detail: 'refused', errors: paths.map((path) => ({ path, message: `bad ${path}` })) } as Problem)

describe('the parameters of the component form (decision 1416)', () => {
  it('binds each template to the first row of its type, any case', () => {
    const rows = [row('Package', '0603'), row('resistance', '10k'), row('Resistance', '22k')]
    expect([...bindTemplates(rows, [template('Resistance', 'pty_r'), template('Tolerance', 'pty_t')])]).toEqual([['pty_r', 1]])
  })

  it('maps an error of the n-th parameter sent back to its row, past the blank rows a save leaves out', () => {
    const rows = [row('', ''), row('Package', '0603'), row(' ', ''), row('Resistance', '20M')]
    const errors = parameterErrors(refused(['body.parameters[1].value', 'body.name']), rows)
    expect([...errors]).toEqual([[3, 'bad body.parameters[1].value']])
    expect(parametersError(refused(['body.parameters']))).toBe('bad body.parameters')
    expect(parametersError(refused(['body.parameters[0].value']))).toBeUndefined()
  })

  it('a template field adds its row, changes it, and removes it when emptied', () => {
    const t = template('Resistance', 'pty_r')
    const added = setTemplateValue([row('Package', '0603')], t, undefined, '10k')
    expect(added).toEqual([row('Package', '0603'), row('Resistance', '10k')])
    expect(setTemplateValue(added, t, 1, '22k')).toEqual([row('Package', '0603'), row('Resistance', '22k')])
    expect(setTemplateValue(added, t, 1, ' ')).toEqual([row('Package', '0603')])
    expect(setTemplateValue([], t, undefined, '')).toEqual([])
  })
})

describe('a free parameter row named as a template, while it is typed', () => {
  const t = template('Resistance', 'pty_r')
  // What the form does on each keystroke in the free rows: the rows shown, the edit applied.
  const type = (rows: ReturnType<typeof row>[], k: number, name: string) => {
    const free = freeRowIndexes(rows, bindTemplates(rows, [t]))
    const shown = free.map((i) => rows[i]!)
    return applyFreeRows(rows, free, shown.map((r, j) => (j === k ? { ...r, type: name } : r)))
  }

  it('stays at its place among the free rows, so its inputs keep the focus, and fills the template field', () => {
    let rows = [row('Package', '0603'), row('', '')]
    for (const name of ['Resistanc', 'Resistance', 'Resistance ']) rows = type(rows, 1, name)
    const bound = bindTemplates(rows, [t])
    expect(bound.get('pty_r')).toBe(1)
    expect(freeRowIndexes(rows, bound)).toEqual([0, 1])
    // Typed on to another name, it is still the same row, in the same place.
    rows = type(rows, 1, 'Resistance tolerance')
    expect(rows.map((r) => r.type)).toEqual(['Package', 'Resistance tolerance'])
    expect(bindTemplates(rows, [t]).size).toBe(0)
  })

  it('keeps a loaded row of the template\'s type in the template field, and edits and removals in place', () => {
    const rows = [row('Resistance', '10k'), row('Package', '0603'), row('Power', '0.1W')]
    const free = freeRowIndexes(rows, bindTemplates(rows, [t]))
    expect(free).toEqual([1, 2])
    const edited = applyFreeRows(rows, free, [{ ...rows[1]!, value: '0805' }, rows[2]!])
    expect(edited.map((r) => r.value)).toEqual(['10k', '0805', '0.1W'])
    expect(applyFreeRows(rows, free, [rows[2]!])).toEqual([rows[0], rows[2]])
    expect(applyFreeRows(rows, free, [rows[1]!, rows[2]!, row('', '')]).length).toBe(4)
  })
})

describe('counts and numbers in words (decision 1418)', () => {
  it('says one in the singular', () => {
    expect([plural(0, 'component'), plural(1, 'component'), plural(1000, 'batch', 'batches'), plural(1, 'batch', 'batches')]).toEqual(['0 components', '1 component', '1,000 batches', '1 batch'])
  })

  it('writes numbers with SI prefixes', () => {
    expect([10_000_000, 0.0000047, 0, 1500, -40, 0.1].map(siNumber)).toEqual(['10M', '4.7u', '0', '1.5k', '-40', '100m'])
  })
})
