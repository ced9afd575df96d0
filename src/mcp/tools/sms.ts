import { z } from 'zod'
import type { SandboxClient } from '../../../client/src/client.js'
import { LISTS } from '../../../client/src/lists.js'
import { type Shape, shapes } from '../shapes.js'
import { afterArg, appKeyArg, defined, oneLine, type Tool, tool } from '../tool.js'
import { listTool, waitTool } from './lists.js'

// The SMS side: the code a user would have read on their phone, the texts that went out, the
// handset's reply, the reviewer's decision on a template or a signature.

const mobileArg = z.string().min(1).describe('The mobile, national (13800138000) or +86 form.')

export const textLine = (m: Shape<'text'>) =>
  `#${m.seq} msg_id ${m.msg_id} to ${m.mobile} [${m.kind}${m.temp_id === null ? '' : ` temp_id ${m.temp_id}`}]` +
  `${m.code === null ? '' : ` code ${m.code}`} at ${m.created_at}: ${oneLine(m.content, 120)}`

const texts = {
  list: LISTS.messages,
  one: 'text',
  many: 'texts',
  item: shapes.text,
  filter: {
    mobile: mobileArg.optional(),
    msg_id: z.string().optional().describe('One text, by the msg_id its send answered.'),
    kind: z.enum(['code', 'voice_code', 'template']).optional().describe('code, voice_code or template.'),
  },
  line: textLine,
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

export const listTexts = listTool({
  ...texts,
  name: 'list_texts',
  title: 'Texts sent',
  description:
    'The SMS the app sent (codes, voice codes, template messages), newest first, with their content and code: use it to see what a user received.',
  when: 'Sent',
  read: (client, filter) => client.messages(filter),
})

export const waitForText = waitTool({
  ...texts,
  name: 'wait_for_text',
  title: 'Wait for a text',
  description:
    'Waits for the next SMS matching the filters (to a mobile, of a kind) and answers it, or what did arrive when none matched: use it after the code under test sends.',
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

/** review_template and review_sign: the reviewer's decision on one, at once. */
function reviewTool<K extends 'temp_id' | 'sign_id', O extends z.ZodRawShape>(spec: {
  name: string
  what: string
  id: K
  output: O
  decide(client: SandboxClient, id: number, status: 1 | 2, reason?: string): Promise<z.output<z.ZodObject<O>>>
  text(decided: z.output<z.ZodObject<O>>, verdict: string): string
}): Tool {
  return tool({
    name: spec.name,
    title: `Review an SMS ${spec.what}`,
    description: `Approves or rejects an SMS ${spec.what} under review, as the vendor’s reviewer would, at once: use it instead of waiting for the review delay.`,
    input: {
      ...appKeyArg,
      [spec.id]: z.number().int().min(1).describe(`The ${spec.what}.`),
      decision: z.enum(['approve', 'reject']).describe('What the reviewer decides.'),
      refuse_reason: z
        .string()
        .optional()
        .describe('With a rejection: the reviewer’s words, as the vendor API shows them.'),
    } as { app_key: typeof appKeyArg.app_key } & Record<K | 'decision' | 'refuse_reason', z.ZodType>,
    output: spec.output,
    annotations: { idempotentHint: true },
    run: (s, args) => {
      const a = args as { app_key?: string; decision: 'approve' | 'reject'; refuse_reason?: string } & Record<
        K,
        number
      >
      return spec.decide(
        s.app(a.app_key).client,
        a[spec.id],
        a.decision === 'approve' ? 1 : 2,
        a.refuse_reason,
      )
    },
    text: decided => {
      const d = decided as unknown as { status: number; refuse_reason: string | null } & Record<K, number>
      const verdict =
        d.status === 1
          ? 'approved'
          : d.status === 2
            ? `rejected${d.refuse_reason ? `: "${d.refuse_reason}"` : ''}`
            : `status ${d.status}`
      return spec.text(decided, `${spec.what} ${d[spec.id]} ${verdict}`)
    },
  })
}

export const reviewTemplate = reviewTool({
  name: 'review_template',
  what: 'template',
  id: 'temp_id',
  output: shapes.decidedTemplate.shape,
  decide: (client, id, status, reason) => client.sms.reviewTemplate(id, status, reason),
  text: (t, verdict) => `${verdict}: ${oneLine(t.template, 120)}`,
})

export const reviewSign = reviewTool({
  name: 'review_sign',
  what: 'signature',
  id: 'sign_id',
  output: shapes.decidedSign.shape,
  decide: (client, id, status, reason) => client.sms.reviewSign(id, status, reason),
  text: (g, verdict) => `${verdict}: 【${g.sign}】`,
})
