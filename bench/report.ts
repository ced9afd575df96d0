import type { Figures } from './load.js'

export interface FigureRow {
  name: string
  figures: Figures
  rss?: number
}

export interface Target {
  name: string
  /** The figure as measured, with what it was computed from. */
  measured: string
  /** The figure compared with the requirement (a ratio, a time, a size). */
  value: number
  required: { atLeast: number } | { atMost: number }
  unit?: string
}

const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a')
const ms = (n: number) => `${fixed(n, n < 10 ? 2 : 1)} ms`

/** Every HTTP scenario's raw figures: throughput, latency, CPU per request, RSS. */
export function renderFigures(rows: FigureRow[]): string {
  const lines = ['| scenario | req/s | p50 | p99 | CPU/req | RSS |', '|---|---:|---:|---:|---:|---:|']
  for (const { name, figures: f, rss } of rows) {
    const bad = f.non2xx + f.errors > 0 ? ` (${f.non2xx} ≥ 400, ${f.errors} errors)` : ''
    lines.push(
      `| ${name} | ${fixed(f.rps, 0)}${bad} | ${ms(f.p50)} | ${ms(f.p99)} | ${fixed(f.cpuUs, 0)} µs | ${rss === undefined ? '' : `${fixed(rss, 0)} MiB`} |`,
    )
  }
  return lines.join('\n')
}

/** Each target of issue 11, what was measured, and whether it is met. */
export function renderTargets(targets: Target[]): string {
  const lines = ['| target | measured | required | met |', '|---|---|---|---|']
  for (const t of targets) {
    const unit = t.unit ?? ''
    const [op, bound] = 'atLeast' in t.required ? ['≥', t.required.atLeast] : ['≤', t.required.atMost]
    const met = 'atLeast' in t.required ? t.value >= t.required.atLeast : t.value <= t.required.atMost
    lines.push(
      `| ${t.name} | ${t.measured} | ${op} ${bound}${unit} | ${Number.isFinite(t.value) ? (met ? 'met' : '**not met**') : 'n/a'} |`,
    )
  }
  return lines.join('\n')
}

/**
 * A product scenario against ceiling (b): the req/s ratio the target is about, and the ratio of
 * CPU per request (the ceiling's over the product's), which a shared machine disturbs less: on a
 * process that uses one core it is the throughput ratio the core would allow.
 */
export function versusCeiling(name: string, f: Figures, b: Figures, atLeast: number): Target {
  const value = f.rps / b.rps
  return {
    name,
    value,
    required: { atLeast },
    unit: ' × (b)',
    measured: `**${value.toFixed(2)} × (b)** (${f.rps.toFixed(0)} vs ${b.rps.toFixed(0)} req/s); by CPU/req ${(b.cpuUs / f.cpuUs).toFixed(2)} (${f.cpuUs.toFixed(0)} vs ${b.cpuUs.toFixed(0)} µs)`,
  }
}
