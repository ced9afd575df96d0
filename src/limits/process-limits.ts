import { readFileSync } from 'node:fs'

/**
 * One of the process's resource limits as the kernel reports it (Linux: /proc/self/limits, the
 * soft value), or undefined when unlimited or unknown (another system). Node raises the open-file
 * limit to its hard value at start, so what is read here is what the process has.
 */
export function processLimit(name: 'Max open files' | 'Max file size'): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find(l => l.startsWith(name))
    const soft = line?.slice(name.length).trim().split(/\s+/)[0]
    return soft === undefined || soft === 'unlimited' ? undefined : Number(soft)
  } catch {
    return undefined
  }
}
