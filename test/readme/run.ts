import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Segment } from './blocks.js'

export interface SegmentResult {
  segment: Segment
  /** Undefined when the shell never finished the segment (it stopped there or before). */
  status?: number
  stdout: string
  stderr: string
}

/**
 * Runs the segments in order in one `sh` (set -eu: a failing command or an unset variable stops
 * it), in a fresh folder that is also $HOME, with SANDBOX pointing at the server. Each segment's
 * output goes to its own files, so a check sees exactly what its commands printed.
 */
export async function runSegments(segments: Segment[], sandbox: string): Promise<SegmentResult[]> {
  const work = mkdtempSync(join(tmpdir(), 'readme-'))
  const out = join(work, '.out')
  const bin = join(work, '.bin')
  mkdirSync(out)
  mkdirSync(bin)
  // jq is optional for the reader: a block that needs it fails here, whether or not jq is installed.
  writeFileSync(join(bin, 'jq'), '#!/bin/sh\necho "jq is optional: no doc block may need it" >&2\nexit 127\n')
  chmodSync(join(bin, 'jq'), 0o755)
  // No reader's ~/.curlrc, and no request may hang the run.
  writeFileSync(join(work, '.curlrc'), 'max-time = 60\n')
  const script = ['set -eu']
  segments.forEach((s, i) => {
    // `:` first: a segment of comments only is still a valid group.
    script.push(`{ :\n${s.code}\n} >"${out}/${i}.out" 2>"${out}/${i}.err"`, `echo $? >"${out}/${i}.rc"`)
  })
  writeFileSync(join(work, '.readme.sh'), `${script.join('\n')}\n`)
  let shell = ''
  await new Promise<void>((resolve, reject) => {
    const sh = spawn('sh', [join(work, '.readme.sh')], {
      cwd: work,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: work, SANDBOX: sandbox, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 180_000,
    })
    sh.stderr.on('data', chunk => {
      shell += chunk
    })
    sh.on('error', reject)
    sh.on('close', () => resolve())
  })
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '')
  const results = segments.map((segment, i) => {
    const rc = read(join(out, `${i}.rc`)).trim()
    // The shell's own complaints (a syntax error) belong to the segment where it stopped.
    const own = rc === '' && (i === 0 || existsSync(join(out, `${i - 1}.rc`))) ? shell : ''
    return {
      segment,
      ...(rc === '' ? {} : { status: Number(rc) }),
      stdout: read(join(out, `${i}.out`)),
      stderr: read(join(out, `${i}.err`)) + own,
    }
  })
  rmSync(work, { recursive: true, force: true })
  return results
}
