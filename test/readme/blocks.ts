// A page's shell examples as the runner sees them (runs.test.ts). The convention, also stated in
// docs/README.md "Running the examples":
// - every ```sh block runs, in the page's order, in one POSIX shell (variables carry over);
// - a block fenced ```sh no-run is shown, never run (Docker, TLS to the vendor hostnames…);
// - a line `# → …` checks everything the commands since the previous check (or the block's start)
//   printed: the whole output, trimmed, must read as shown, where `…` stands for anything.

export interface Segment {
  /** 1-based number of the block among the page's ```sh blocks. */
  block: number
  /** The page's line numbers (1-based) of the segment's first and last line of code. */
  first: number
  last: number
  code: string
  /** The `# → ` line closing the segment, if any. */
  expect?: { line: number; pattern: string }
}

export interface ShellBlocks {
  segments: Segment[]
  /** Blocks marked no-run, by their fence line: shown to the reader, skipped here. */
  skipped: number[]
  /** Fences of shell-like languages the runner would not see (```bash, ```shell, ```console). */
  strays: number[]
}

const EXPECT = /^\s*# → (.*)$/

export function shellBlocks(markdown: string): ShellBlocks {
  const lines = markdown.split('\n')
  const out: ShellBlocks = { segments: [], skipped: [], strays: [] }
  let block = 0
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\S*)\s*(.*)$/.exec(lines[i]!)
    if (!fence) continue
    const [, lang, info] = fence
    let end = i + 1
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++
    if (lang === 'sh') {
      block++
      if (/\bno-run\b/.test(info!)) out.skipped.push(i + 1)
      else out.segments.push(...segmentsOf(lines, i + 1, end, block))
    } else if (['bash', 'shell', 'console', 'zsh'].includes(lang!)) {
      out.strays.push(i + 1)
    }
    i = end
  }
  return out
}

/** Lines `from` (inclusive, 0-based) to `to` (exclusive), cut at each `# → `. */
function segmentsOf(lines: string[], from: number, to: number, block: number): Segment[] {
  const segments: Segment[] = []
  let start = from
  for (let i = from; i < to; i++) {
    const check = EXPECT.exec(lines[i]!)
    if (!check) continue
    segments.push({
      block,
      first: start + 1,
      last: i,
      code: lines.slice(start, i).join('\n'),
      expect: { line: i + 1, pattern: check[1]!.trim() },
    })
    start = i + 1
  }
  if (lines.slice(start, to).some(l => l.trim() !== ''))
    segments.push({ block, first: start + 1, last: to, code: lines.slice(start, to).join('\n') })
  return segments
}

/** Whether `output` reads as `pattern` shows it: the whole of it, `…` standing for anything. */
export function matches(pattern: string, output: string): boolean {
  const source = pattern
    .split('…')
    .map(part => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*')
  return new RegExp(`^${source}$`).test(output.trim())
}
