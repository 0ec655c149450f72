// The bench command: `pnpm bench` (full) or `pnpm bench --quick` (the smoke
// version CI runs). Every figure is printed beside a baseline measured in the
// same run, and the table is written to bench-results/latest.md.
import { mkdirSync, writeFileSync } from 'node:fs'
import { benchStorageWrite } from './storage-write'
import { benchPush } from './push'
import { benchSuggest } from './suggest'

const quick = process.argv.includes('--quick')
// `--only push,suggest` runs some scenarios (while working on one of them).
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',')
const scenarios = { write: benchStorageWrite, suggest: benchSuggest, push: benchPush }
const rows = []
for (const [name, bench] of Object.entries(scenarios)) if (!only || only.includes(name)) rows.push(...(await bench({ quick })).rows)

const header = '| scenario | subject | baseline (same run) | ratio | target |\n|---|---|---|---|---|'
const table = [header, ...rows.map((r) => `| ${r.scenario} | ${r.subject} | ${r.baseline} | ${r.ratio} | ${r.target} |`)].join('\n')
const machine = `Node ${process.version}, ${(await import('node:os')).cpus().length} cores, ${quick ? 'quick' : 'full'} run, ${new Date().toISOString()}`
console.log(`\n${table}\n\n${machine}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/latest.md', `${table}\n\n${machine}\n`)
