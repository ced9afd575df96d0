import type { Figures } from './load.js'

export interface Row {
  name: string
  figures?: Figures
  skipped?: string
  rss?: number
  ceiling?: Figures
  ceilingRss?: number
  target?: string
}

const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`

/** The markdown the bench prints: throughput and latency, each with its ratio to the ceiling. */
export function renderTable(rows: Row[], extra: string[]): string {
  const lines = [
    '| scenario | req/s | p50 | p99 | CPU/req | RSS | vs ceiling (b) | target |',
    '|---|---|---|---|---|---|---|---|',
  ]
  for (const r of rows) {
    if (!r.figures) {
      lines.push(`| ${r.name} | skipped: ${r.skipped} | | | | | | ${r.target ?? ''} |`)
      continue
    }
    const f = r.figures
    const c = r.ceiling
    const ratio = c
      ? `${pct(f.rps, c.rps)} req/s, p50 ${times(f.p50, c.p50)}, p99 ${times(f.p99, c.p99)}` +
        `, CPU/req ×${(f.cpuUs / c.cpuUs).toFixed(1)}` +
        (r.rss && r.ceilingRss ? `, RSS ×${(r.rss / r.ceilingRss).toFixed(1)}` : '')
      : ''
    const errors = f.non2xx + f.errors > 0 ? ` (${f.non2xx} non-2xx, ${f.errors} errors)` : ''
    lines.push(
      `| ${r.name} | ${f.rps.toFixed(0)}${errors} | ${ms(f.p50)} | ${ms(f.p99)} | ${Number.isNaN(f.cpuUs) ? '' : `${f.cpuUs.toFixed(0)} µs`} | ${r.rss ? `${r.rss.toFixed(0)} MiB` : ''} | ${ratio} | ${r.target ?? ''} |`,
    )
  }
  lines.push('', '| measure | as measured | target |', '|---|---|---|', ...extra)
  return lines.join('\n')
}

/** A latency ratio; autocannon counts whole milliseconds, so a ceiling of 0 ms has none. */
function times(value: number, ceiling: number): string {
  return ceiling > 0 ? `×${(value / ceiling).toFixed(1)}` : `${value} ms vs < 1 ms`
}
