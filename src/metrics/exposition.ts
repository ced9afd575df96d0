// The Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/): `# HELP` and `# TYPE` lines, then
// one `name{label="value"} number` line per sample. Written here rather than taken from prom-client:
// the sandbox needs a handful of counters, one histogram and gauges read at scrape time, and
// prom-client would add its packages to every start and a label hash to every request, which is the
// budget docs/performance.md counts in microseconds. The tests read this output with a Prometheus
// text parser (test/metrics/).

export type Labels = Readonly<Record<string, string>>

/** The content type of the format, for the answer's header. */
export const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** Label values escape backslash, double quote and line feed. */
const escapeValue = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
const escapeHelp = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

function labelText(labels: Labels | undefined): string {
  if (!labels) return ''
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeValue(v)}"`)
  return parts.length === 0 ? '' : `{${parts.join(',')}}`
}

function number(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (v === Number.POSITIVE_INFINITY) return '+Inf'
  if (v === Number.NEGATIVE_INFINITY) return '-Inf'
  return String(v)
}

/** Collects families in the order written, then renders them. */
export class Exposition {
  private readonly lines: string[] = []

  family(name: string, type: 'counter' | 'gauge' | 'histogram', help: string): this {
    this.lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`)
    return this
  }

  sample(name: string, value: number, labels?: Labels): this {
    this.lines.push(`${name}${labelText(labels)} ${number(value)}`)
    return this
  }

  text(): string {
    return `${this.lines.join('\n')}\n`
  }
}

/**
 * A histogram per label set, of observations in seconds: the counts are kept per bucket and made
 * cumulative when written, so an observation is one comparison loop and three additions.
 */
export class Histogram {
  private readonly series = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >()

  constructor(
    readonly name: string,
    readonly help: string,
    /** Upper bounds, ascending; +Inf is added. */
    private readonly bounds: readonly number[],
  ) {}

  observe(key: string, labels: Labels, value: number): void {
    let s = this.series.get(key)
    if (!s) {
      s = { labels, counts: new Array(this.bounds.length + 1).fill(0), sum: 0, count: 0 }
      this.series.set(key, s)
    }
    let i = 0
    while (i < this.bounds.length && value > this.bounds[i]!) i++
    s.counts[i]!++
    s.sum += value
    s.count++
  }

  writeTo(out: Exposition): void {
    out.family(this.name, 'histogram', this.help)
    for (const s of this.series.values()) {
      let cumulative = 0
      this.bounds.forEach((le, i) => {
        cumulative += s.counts[i]!
        out.sample(`${this.name}_bucket`, cumulative, { ...s.labels, le: String(le) })
      })
      out.sample(`${this.name}_bucket`, s.count, { ...s.labels, le: '+Inf' })
      out.sample(`${this.name}_sum`, s.sum, s.labels)
      out.sample(`${this.name}_count`, s.count, s.labels)
    }
  }
}
