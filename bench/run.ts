// The bench command: `pnpm bench` (full) or `pnpm bench --quick` (the smoke
// version CI runs). Every figure is printed beside a baseline measured in the
// same run, and the table is written to bench-results/latest.md.
import { mkdirSync, writeFileSync } from 'node:fs'
import { benchStorageWrite } from './storage-write'
import { benchPush } from './push'
import { benchSuggest } from './suggest'

const quick = process.argv.includes('--quick')
const rows = [...(await benchStorageWrite({ quick })).rows, ...(await benchSuggest({ quick })).rows, ...(await benchPush({ quick })).rows]

const header = '| scenario | subject | baseline (same run) | ratio | target |\n|---|---|---|---|---|'
const table = [header, ...rows.map((r) => `| ${r.scenario} | ${r.subject} | ${r.baseline} | ${r.ratio} | ${r.target} |`)].join('\n')
const machine = `Node ${process.version}, ${(await import('node:os')).cpus().length} cores, ${quick ? 'quick' : 'full'} run, ${new Date().toISOString()}`
console.log(`\n${table}\n\n${machine}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/latest.md', `${table}\n\n${machine}\n`)
