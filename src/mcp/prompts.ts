import { z } from 'zod'
import type { Fault } from '../../client/src/app-types.js'
import type { Session } from './session.js'
import { explained } from './tools/journal.js'
import { pushLine } from './tools/push.js'
import { textLine } from './tools/sms.js'

// The prompt "debug a failing SMS/push test": what the sandbox knows about the app now — the
// journal's latest refusals with their reasons, the armed faults, the latest texts and pushes, the
// clock — and the order to look in, with the tools that look further.

/** Entries of the journal read for refusals, and how many of each kind the prompt shows. */
const JOURNAL_READ = 100
const SHOWN = 10

export const debugArgs = {
  app_key: z
    .string()
    .optional()
    .describe('The app the test used (the operator’s credentials must name one).'),
  mobile: z.string().optional().describe('The mobile the test texted, if any.'),
  registration_id: z.string().optional().describe('The device the test pushed to, if any.'),
  failure: z.string().optional().describe('What the test said: the assertion or error.'),
}

export async function debugPrompt(
  s: Session,
  args: {
    app_key?: string | undefined
    mobile?: string | undefined
    registration_id?: string | undefined
    failure?: string | undefined
  },
): Promise<string> {
  const { client, appKey } = s.app(args.app_key)
  const [journal, faults, texts, pushes, clock] = await Promise.all([
    client.requests({ limit: JOURNAL_READ }),
    client.faults.list() as Promise<Fault[]>,
    client.messages({ limit: SHOWN, ...(args.mobile ? { mobile: args.mobile } : {}) }),
    client.pushes({
      limit: SHOWN,
      ...(args.registration_id ? { registration_id: args.registration_id } : {}),
    }),
    client.clock(),
  ])
  const refusals = journal.requests.filter(r => r.status >= 400).slice(0, SHOWN)
  const section = (title: string, lines: string[], none: string) =>
    `## ${title}\n${lines.length === 0 ? none : lines.join('\n')}`
  return [
    `A test of app ${appKey} against jiguang-sandbox (${s.baseUrl}) is failing${args.failure ? `: ${args.failure}` : ''}. Find out why, in this order:`,
    '1. The journal: a call the sandbox refused says why in `reason` (a template under review, a frequency limit, a balance, an armed fault, bad credentials). `explain_request` with the msg_id, path or code shows one with its bodies; `wait_for_request` waits for the next.',
    '2. The armed faults: a fault left armed by an earlier test fails the next matching calls. `clear_faults` disarms them.',
    `3. What went out: \`list_texts\`${args.mobile ? ` (mobile ${args.mobile})` : ''} and \`latest_code\` for SMS, \`list_pushes\`${args.registration_id ? ` (registration_id ${args.registration_id})` : ''} and \`list_devices\` for push. A text or push that never came: was the call made at all (the journal), to which mobile or device?`,
    '4. Time: scheduled texts, delivery reports and reviews fall due on the app’s clock; `advance_clock` moves it and shows what fell due.',
    'Say which call failed and why, quoting the reason, then what to change in the test or the code.',
    '',
    section(
      `Latest refusals (of the newest ${journal.requests.length} calls journaled)`,
      refusals.map(explained),
      'none: every journaled call was answered 2xx',
    ),
    section(
      'Armed faults',
      faults.map(f => JSON.stringify(f)),
      'none',
    ),
    section(`Latest texts${args.mobile ? ` to ${args.mobile}` : ''}`, texts.messages.map(textLine), 'none'),
    section(
      `Latest pushes received${args.registration_id ? ` by ${args.registration_id}` : ''}`,
      pushes.messages.map(pushLine),
      'none',
    ),
    `## The app's clock\n${new Date(clock.now).toISOString()}, ${clock.offset_ms} ms ahead of real time`,
  ].join('\n')
}
