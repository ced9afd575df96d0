import { type Figures, loadRound, summarize } from './load.js'
import { APPS, basic, mobileBlock } from './product.js'

const mainAuth = basic(APPS.main.key, APPS.main.secret)

const recipient = '{"mobile":"{{mobile}}","temp_para":{"order":"SO20260101000042","days":"3"}}'
export const batchTemplate = `{"temp_id":2,"recipients":[${Array(1000).fill(recipient).join(',')}]}`

/** POST /v1/messages/batch of 1000 new mobiles, one caller back to back: one batch's latency. */
export async function smsBatch(
  url: string,
  rounds: number,
  seconds: number,
  pid?: number,
): Promise<Figures & { rounds: Figures[] }> {
  const all: Figures[] = []
  for (let r = 0; r < rounds; r++)
    all.push(
      await loadRound({
        url,
        pid,
        method: 'POST',
        path: '/v1/messages/batch',
        headers: { authorization: mainAuth },
        // A new block of mobiles each round: the same mobile twice a day would meet its limits.
        body: { template: batchTemplate, start: mobileBlock() },
        connections: 1,
        durationSeconds: seconds,
      }),
    )
  return summarize(all)
}
