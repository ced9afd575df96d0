import { z } from 'zod'
import { LISTS } from '../../../client/src/lists.js'
import { type Shape, shapes } from '../shapes.js'
import { afterArg, appKeyArg, defined, tool } from '../tool.js'
import { waitTool } from './lists.js'

// The request journal: every /v1 and /v3 call of the app and every /_sandbox write, with what it
// was answered and, when refused, why in words (docs/control-plane.md "The request journal").

/** How many of the newest entries `refused_only` looks through. */
const REFUSALS_READ = 100

const requestFilter = {
  msg_id: z
    .string()
    .optional()
    .describe('The requests that created this id (a text’s, a push’s) or named it in their path.'),
  path: z.string().optional().describe('Paths starting with this, e.g. /v1/messages.'),
  method: z.string().optional().describe('GET, POST, PUT, DELETE, PATCH.'),
  status: z.number().int().optional().describe('The HTTP status answered, e.g. 403.'),
  code: z
    .number()
    .int()
    .optional()
    .describe('The refusal’s code (the vendor’s, e.g. 50009, or the control plane’s 900xx).'),
}

export const requestLine = (r: Shape<'request'>) =>
  `#${r.seq} ${r.method} ${r.path}${r.query ? `?${r.query}` : ''} → ${r.status}` +
  `${r.code === null ? '' : ` ${r.code} ${r.message ?? ''}`} at ${r.at}`

/** An entry with what explains it: the reason, the ids, the bodies. */
export const explained = (r: Shape<'request'>) =>
  [
    requestLine(r),
    r.reason ? `reason: ${r.reason}` : r.status < 400 ? 'accepted' : undefined,
    Object.keys(r.ids).length > 0 ? `ids: ${JSON.stringify(r.ids)}` : undefined,
    ...r.warnings.map(w => `warning ${w.rule}: ${w.message} (${w.source})`),
    r.request_body ? `request body: ${r.request_body}` : undefined,
    r.answer_body ? `answer body: ${r.answer_body}` : undefined,
  ]
    .filter(Boolean)
    .join('\n')

export const explainRequest = tool({
  name: 'explain_request',
  title: 'Why a call was answered so',
  description:
    'The journal’s entry of a call to the sandbox — status, code, the reason it was refused, its bodies — by msg_id, path or filter: use it when a test got an error it did not expect.',
  input: {
    ...appKeyArg,
    ...requestFilter,
    refused_only: z
      .boolean()
      .default(false)
      .describe(`Only refusals (status 400 or more), among the newest ${REFUSALS_READ} matching.`),
    after: afterArg,
    limit: z.number().int().min(1).max(20).default(1).describe('How many entries, newest first (1–20).'),
  },
  output: { requests: z.array(shapes.request), next_after: z.number() },
  annotations: { readOnlyHint: true },
  run: async (s, { app_key, refused_only, limit, ...filter }) => {
    const { client } = s.app(app_key)
    const query = defined(filter)
    if (!refused_only) return client.requests({ ...query, limit })
    const page = await client.requests({ ...query, limit: REFUSALS_READ })
    return {
      requests: page.requests.filter(r => r.status >= 400).slice(0, limit),
      next_after: page.next_after,
    }
  },
  text: (page, { app_key: _, limit: __, refused_only, ...filter }) =>
    page.requests.length === 0
      ? `no journaled ${refused_only ? 'refusal' : 'request'} matches ${JSON.stringify(defined(filter))} (the journal keeps each /v1 and /v3 call and each /_sandbox write of the app); next_after ${page.next_after}`
      : `${page.requests.map(explained).join('\n\n')}\nnext_after ${page.next_after}`,
})

export const waitForRequest = waitTool({
  list: LISTS.requests,
  one: 'request',
  many: 'requests',
  item: shapes.request,
  filter: requestFilter,
  line: requestLine,
  foundLine: explained,
  name: 'wait_for_request',
  title: 'Wait for a call',
  description:
    'Waits for the next call the journal records matching the filters (a path, a status, a code) and answers it with its reason, or what did arrive when none matched: use it when the code under test calls the sandbox in the background.',
})
