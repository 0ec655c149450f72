import { describe, expect, it } from 'vitest'
import { commandHelp, COMMANDS, isCommand, USAGE, type CommandName } from '../src/cli-help'

const names = Object.keys(COMMANDS) as CommandName[]
const flags = (text: string) => new Set([...text.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]))

// Spawning `complib <command> --help` is in cli.test.ts (out of the quick tier).
describe("each complib command's own --help", () => {
  it.each(names)('%s: usage, every option of its usage line explained, and an example that runs it', (name) => {
    const text = commandHelp(name)
    expect(text).toMatch(new RegExp(`^complib ${name}: \\S`))
    expect(text).toMatch(/\nUsage:\n {2}complib /)
    expect(text).toMatch(/\nOptions:\n/)
    expect(text).toMatch(new RegExp(`\\nExamples?:\\n {2}(\\S+=\\S+ )?complib ${name} `))
    const options = text.slice(text.indexOf('Options:'), text.search(/\nExamples?:/))
    const usage = COMMANDS[name].usage.join(' ')
    // Each flag of the usage has its line under Options, and Options names none the usage lacks.
    expect([...flags(options)].sort()).toEqual([...flags(usage), '--help'].sort())
  })

  it('the global help shows every form of every command and points to the per-command help', () => {
    for (const name of names) for (const line of COMMANDS[name].usage) expect(USAGE).toContain(line.trim())
    expect(USAGE).toContain('complib <command> --help')
    expect(isCommand('push')).toBe(true)
    expect(isCommand('toString')).toBe(false)
  })
})
