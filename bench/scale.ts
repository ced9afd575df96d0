// `npx tsx bench/scale.ts`: the name earlier measurements in docs/performance.md give; the bench
// is now `npm run bench -- --issue32` (bench/issue32.ts), the same knobs (SCALE, ROUNDS, STARTS).
import { issue32 } from './issue32.js'

await issue32()
