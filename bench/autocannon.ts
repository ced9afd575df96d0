import { spawn } from 'node:child_process'
import type { LoadOptions, RawRound } from './load-types.js'

/** One round of autocannon-child.mjs: autocannon in its own process (whole milliseconds only). */
export function runAutocannon(o: LoadOptions): Promise<RawRound> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['bench/autocannon-child.mjs', JSON.stringify({ ...o, pid: undefined })],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let out = ''
    child.stdout.setEncoding('utf8').on('data', chunk => {
      out += chunk
    })
    child.once('error', reject)
    child.once('exit', code => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}:\n${out}`))
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as RawRound)
      } catch {
        reject(new Error(`autocannon printed no figures:\n${out}`))
      }
    })
  })
}
