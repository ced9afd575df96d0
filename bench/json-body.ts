import sjson from 'secure-json-parse'
import { parseJsonText } from '../src/http/body/json-text.js'
import { postBody } from './product.js'

// `npx tsx bench/json-body.ts`: the JSON body parser on every request's hot path, before (what
// acceptAnyBody ran until the nesting bound and exact ids: secure-json-parse alone) and now
// (parseJsonText), on the same bodies in the same process, rounds interleaved. Median of 13
// rounds, ns per parse.

const ANDROID = '1a0018970a8b0fd6c0e'
const push = (options: string) =>
  `{"platform":"all","audience":{"registration_id":["${ANDROID}"]},"notification":{"alert":"hello",` +
  `"android":{"alert":"hello","title":"t","extras":{"order":"SO42","n":3}},"ios":{"alert":"hello",` +
  `"sound":"default","badge":"+1"},"ai_opportunity":false},"options":{${options}}}`
const batch = JSON.stringify({
  temp_id: 2,
  recipients: Array.from({ length: 1000 }, (_, i) => ({
    mobile: `1390000${String(i).padStart(4, '0')}`,
    temp_para: { order: `SO${i}`, days: '1' },
  })),
})
const longText = JSON.stringify({ template: `${'模板内容'.repeat(100_000)}{{code}}`, type: 1 })

const cases: Array<[name: string, text: string, exact?: readonly string[]]> = [
  ['SMS template send, 200 B', postBody],
  [
    'push, 400 B, no long number',
    push('"sendno":1234567,"apns_production":false'),
    ['options.override_msg_id'],
  ],
  [
    'push, 17-digit override_msg_id',
    push('"apns_production":false,"override_msg_id":18100000000000001'),
    ['options.override_msg_id'],
  ],
  [`batch of 1000, ${Math.round(batch.length / 1024)} KiB`, batch],
  [`one long string, ${Math.round(Buffer.byteLength(longText) / 1024)} KiB`, longText],
]

/** ns per call of each parser, rounds interleaved so both see the same machine load. */
function measure(text: string, exact: readonly string[] | undefined): [before: number, now: number] {
  const n = Math.max(20, Math.round(2_000_000 / text.length))
  const fns = [() => before(text), () => parseJsonText(text, exact)]
  const rounds: number[][] = [[], []]
  for (let r = 0; r < 15; r++) {
    fns.forEach((fn, k) => {
      const start = process.hrtime.bigint()
      for (let i = 0; i < n; i++) fn()
      if (r >= 2) rounds[k]!.push(Number(process.hrtime.bigint() - start) / n) // 2 warm-up rounds
    })
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!
  return [median(rounds[0]!), median(rounds[1]!)]
}

const before = (text: string) =>
  sjson.parse(text, null, { protoAction: 'remove', constructorAction: 'remove' })
console.log('| body | before (ns) | now (ns) | change |\n|---|---:|---:|---:|')
for (const [name, text, exact] of cases) {
  const [a, b] = measure(text, exact)
  const change = `${b >= a ? '+' : ''}${Math.round(((b - a) / a) * 100)} %`
  console.log(
    `| ${name} | ${Math.round(a).toLocaleString('en')} | ${Math.round(b).toLocaleString('en')} | ${change} |`,
  )
}
