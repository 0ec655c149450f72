import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const RECEIVER = fileURLToPath(new URL('../receiver.py', import.meta.url))

export interface PythonReceiver {
  /** The URL to give the connector. */
  url: string
  /** Everything the process printed. */
  output(): string
  close(): Promise<void>
}

/** Runs `python3 receiver.py` on a free port (with `--mirror` if asked) and waits for its "listening on" line. */
export async function startPythonReceiver(options: { secret: string; file: string; mirror?: boolean }): Promise<PythonReceiver> {
  const child: ChildProcess = spawn('python3', [RECEIVER, '--port', '0', '--file', options.file, ...(options.mirror ? ['--mirror'] : [])], {
    env: { ...process.env, WEBHOOK_SECRET: options.secret, PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`receiver.py did not start within 15 s:\n${output}`)), 15_000)
    const check = () => {
      const match = /listening on (\S+),/.exec(output)
      if (match) {
        clearTimeout(timer)
        child.stdout!.off('data', check)
        resolve(match[1]!)
      }
    }
    child.stdout!.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`receiver.py exited with ${code}:\n${output}`))
    })
  })
  return {
    url,
    output: () => output,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
