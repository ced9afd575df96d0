import { z } from 'zod'
import { LISTS } from '../../../client/src/lists.js'
import { type Shape, shapes } from '../shapes.js'
import { afterArg, appKeyArg, defined, limitArg, oneLine, timeArg, tool } from '../tool.js'
import { waitAnswer, waitArgs, waitedText, waitFor } from './wait.js'

// The SMS side: the code a user would have read on their phone, the texts that went out, the
// handset's reply, the reviewer's decision on a template or a signature.

const mobileArg = z.string().min(1).describe('The mobile, national (13800138000) or +86 form.')
const kindArg = z.enum(['code', 'voice_code', 'template'])

export const textLine = (m: Shape<'text'>) =>
  `#${m.seq} msg_id ${m.msg_id} to ${m.mobile} [${m.kind}${m.temp_id === null ? '' : ` temp_id ${m.temp_id}`}]` +
  `${m.code === null ? '' : ` code ${m.code}`} at ${m.created_at}: ${oneLine(m.content, 120)}`

const textFilter = {
  mobile: mobileArg.optional(),
  msg_id: z.string().optional().describe('One text, by the msg_id its send answered.'),
  kind: kindArg.optional().describe('code, voice_code or template.'),
}

export const latestCode = tool({
  name: 'latest_code',
  title: 'Latest verification code',
  description:
    'The verification code last texted to a mobile (code, msg_id, expiry, verified): use it where a test needs the code a user would type.',
  input: {
    ...appKeyArg,
    mobile: mobileArg,
    kind: z.enum(['code', 'voice_code']).optional().describe('code (SMS) or voice_code; either by default.'),
    after: afterArg,
    wait_ms: z
      .number()
      .int()
      .min(0)
      .max(30_000)
      .default(0)
      .describe('Real milliseconds to wait for one when there is none yet (at most 30000).'),
  },
  output: shapes.code.shape,
  annotations: { readOnlyHint: true },
  run: (s, { app_key, mobile, kind, after, wait_ms }) =>
    s.app(app_key).client.latestCode(mobile, defined({ kind, after, wait: wait_ms || undefined })),
  text: c =>
    `code ${c.code} for ${c.mobile} (${c.kind}, msg_id ${c.msg_id}, sent ${c.created_at}, ` +
    `expires ${c.expires_at}, ${c.verified ? 'verified' : 'not verified yet'}; seq ${c.seq})`,
})

export const listTexts = tool({
  name: 'list_texts',
  title: 'Texts sent',
  description:
    'The SMS the app sent (codes, voice codes, template messages), newest first, with their content and code: use it to see what a user received.',
  input: {
    ...appKeyArg,
    ...textFilter,
    after: afterArg,
    since: timeArg('Sent at or after'),
    until: timeArg('Sent before'),
    limit: limitArg(1000, 20),
  },
  output: { messages: z.array(shapes.text), next_after: z.number() },
  annotations: { readOnlyHint: true },
  run: (s, { app_key, ...filter }) => s.app(app_key).client.messages(defined(filter)),
  text: page =>
    page.messages.length === 0
      ? `no texts match; next_after ${page.next_after}`
      : `${page.messages.map(textLine).join('\n')}\nnext_after ${page.next_after}`,
})

export const waitForText = tool({
  name: 'wait_for_text',
  title: 'Wait for a text',
  description:
    'Waits for the next SMS matching the filters (to a mobile, of a kind) and answers it, or what did arrive when none matched: use it after the code under test sends.',
  input: { ...appKeyArg, ...textFilter, ...waitArgs },
  output: waitAnswer(shapes.text),
  annotations: { readOnlyHint: true },
  run: (s, { app_key, after, timeout_ms, ...filter }) =>
    waitFor(s.app(app_key).http, LISTS.messages, defined(filter), after, timeout_ms),
  text: (w, { app_key: _, after: __, timeout_ms, ...filter }) =>
    waitedText(w, 'text', defined(filter), timeout_ms, textLine),
})

export const injectReply = tool({
  name: 'inject_reply',
  title: 'Reply from a phone',
  description:
    "Plays a handset replying to the app (an uplink SMS; TD, T or 退订 unsubscribe it from marketing): use it to test the app's reply handling.",
  input: { ...appKeyArg, mobile: mobileArg, content: z.string().min(1).describe('What the phone sends.') },
  output: shapes.replied.shape,
  annotations: {},
  run: (s, { app_key, mobile, content }) => s.app(app_key).client.sms.reply(mobile, content),
  text: r =>
    `${r.mobile} replied "${oneLine(r.content, 120)}" at ${r.reply_time}${r.unsubscribed ? ' (unsubscribed from marketing)' : ''}`,
})

const decision = {
  decision: z.enum(['approve', 'reject']).describe('What the reviewer decides.'),
  refuse_reason: z
    .string()
    .optional()
    .describe('With a rejection: the reviewer’s words, as GET /v1/templates shows them.'),
}
const status = (d: 'approve' | 'reject') => (d === 'approve' ? 1 : 2) as 1 | 2
const reviewed = (what: string, id: number, s: number, reason: string | null) =>
  `${what} ${id} ${s === 1 ? 'approved' : s === 2 ? `rejected${reason ? `: "${reason}"` : ''}` : `status ${s}`}`

export const reviewTemplate = tool({
  name: 'review_template',
  title: 'Review an SMS template',
  description:
    'Approves or rejects an SMS template under review, as the vendor’s reviewer would, at once: use it instead of waiting for the review delay.',
  input: { ...appKeyArg, temp_id: z.number().int().min(1).describe('The template.'), ...decision },
  output: shapes.decidedTemplate.shape,
  annotations: { idempotentHint: true },
  run: (s, { app_key, temp_id, decision: d, refuse_reason }) =>
    s.app(app_key).client.sms.reviewTemplate(temp_id, status(d), refuse_reason),
  text: t => `${reviewed('template', t.temp_id, t.status, t.refuse_reason)}: ${oneLine(t.template, 120)}`,
})

export const reviewSign = tool({
  name: 'review_sign',
  title: 'Review an SMS signature',
  description:
    'Approves or rejects an SMS signature under review, as the vendor’s reviewer would, at once: use it instead of waiting for the review delay.',
  input: { ...appKeyArg, sign_id: z.number().int().min(1).describe('The signature.'), ...decision },
  output: shapes.decidedSign.shape,
  annotations: { idempotentHint: true },
  run: (s, { app_key, sign_id, decision: d, refuse_reason }) =>
    s.app(app_key).client.sms.reviewSign(sign_id, status(d), refuse_reason),
  text: g => `${reviewed('signature', g.sign_id, g.status, g.refuse_reason)}: 【${g.sign}】`,
})
