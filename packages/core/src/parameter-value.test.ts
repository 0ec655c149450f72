import { describe, expect, it } from 'vitest'
import { checkParameterValue, missingRequired, parameterTypeProblems, type ParameterRule } from './parameter-value'

const resistance: ParameterRule = { name: 'Resistance', unit: 'Ω', kind: 'number', choices: null, min: 0, max: 1e6 }
const tolerance: ParameterRule = { name: 'Tolerance', unit: null, kind: 'choice', choices: ['1%', '5%'], min: null, max: null }

describe('checkParameterValue', () => {
  it('reads a number with SI prefix, within the limits, taking the type\'s unit when the value names none', () => {
    expect(checkParameterValue(resistance, '4k7', null)).toEqual({ ok: true, value: '4k7', unit: 'Ω' })
    expect(checkParameterValue(resistance, '1M', 'ohm')).toEqual({ ok: true, value: '1M', unit: 'ohm' })
    expect(checkParameterValue(resistance, 'ten kilo', null)).toMatchObject({ ok: false, message: expect.stringMatching(/^not a number: "ten kilo"/) })
    expect(checkParameterValue(resistance, '1.1M', null)).toMatchObject({ ok: false, message: expect.stringContaining('above the greatest Resistance') })
    expect(checkParameterValue(resistance, '-1', null)).toMatchObject({ ok: false, message: expect.stringContaining('below the least Resistance') })
  })

  it('matches a choice as identifiers compare, answering its listed spelling; text takes anything', () => {
    expect(checkParameterValue({ ...tolerance, choices: ['Jumper'] }, ' JUMPER', undefined)).toEqual({ ok: true, value: 'Jumper', unit: null })
    expect(checkParameterValue(tolerance, '10%', null)).toMatchObject({ ok: false, message: expect.stringContaining('1%, 5%') })
    expect(checkParameterValue({ ...tolerance, kind: 'text', choices: null }, 'anything', '')).toEqual({ ok: true, value: 'anything', unit: null })
  })
})

describe('parameterTypeProblems', () => {
  it('names each field that does not fit the kind', () => {
    expect(parameterTypeProblems({ kind: 'number', choices: null, min: 1, max: 2 })).toEqual([])
    expect(parameterTypeProblems({ kind: 'number', choices: ['a'], min: 3, max: 2 }).map((p) => p.path)).toEqual(['body.choices', 'body.min'])
    expect(parameterTypeProblems({ kind: 'choice', choices: null, min: null, max: null }).map((p) => p.path)).toEqual(['body.choices'])
    expect(parameterTypeProblems({ kind: 'choice', choices: ['a', 'A'], min: null, max: 1 }).map((p) => p.path)).toEqual(['body.choices[1]', 'body.max'])
  })
})

describe('missingRequired', () => {
  it('lists required types the parameters lack, compared by foldKey', () => {
    const templates = [{ parameterType: 'Resistance', required: true }, { parameterType: 'Power', required: false }, { parameterType: 'Tolerance', required: true }]
    expect(missingRequired(templates, [{ type: 'RESISTANCE' }])).toEqual(['Tolerance'])
  })
})
