import { randomInt } from 'node:crypto'
import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import type { ApiError } from '../../errors.js'
import { optionalInt, optionalString } from '../../http/body/fields.js'
import { field, params, text } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { iso, isoOrNull } from '../../time.js'
import { smsErrors as e } from '../errors.js'
import { mobile, msgIdAnswer, signId, smsBody, tempId, ttl } from '../fields.js'
import { SMS_LIMITS } from '../limits.js'
import { deliver, renderTemplateMessage, resolveSign, resolveTemplate, templateSend } from './send.js'

// Verification codes, texted or spoken, and their check (jsms-api.md §2.1–§2.3).

/** Six digits: the Java client refuses to validate anything else (jsms-api.md §2.3). */
function generateCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0')
}

const spaced = (code: string) => code.split('').join(' ')
const VOICE_TEXT: Record<number, (code: string) => string> = {
  0: code => `您的语音验证码是${spaced(code)}`,
  1: code => `Your verification code is ${spaced(code)}`,
  2: code => `您的语音验证码是${spaced(code)}. Your verification code is ${spaced(code)}`,
}

/** The code a voice call says: 4–8 digits, or absent (a 6-digit code is generated). */
const voiceCode = field({
  read(value): string | undefined {
    const given = optionalString(value, e.invalidCodeType)
    if (given !== undefined && !/^\d+$/.test(given)) throw e.invalidCodeType()
    if (
      given !== undefined &&
      (given.length < SMS_LIMITS.voiceCodeMinDigits || given.length > SMS_LIMITS.voiceCodeMaxDigits)
    )
      throw e.invalidContentLength()
    return given
  },
  schema: z.string().describe('4–8 digits; absent: a 6-digit code is generated.').optional(),
  errors: [e.invalidCodeType(), e.invalidContentLength()],
})

/** The language the call speaks: how it says the code. */
const voiceLang = field({
  read(value): (code: string) => string {
    const say = VOICE_TEXT[optionalInt(value, e.invalidVoiceLanguageType) ?? 0]
    if (!say) throw e.invalidVoiceLanguageType()
    return say
  },
  schema: z
    .union([z.literal(0), z.literal(1), z.literal(2)])
    .describe('0 Chinese, 1 English, 2 both.')
    .optional(),
  errors: [e.invalidVoiceLanguageType()],
})

/** The code to check, as given: a JSON number (C#, Python callers) has lost its leading zeros. */
const codeToCheck = field({
  read(value): { text: string; number: boolean } {
    const code = optionalString(value, e.invalidCode)
    if (code === undefined) throw e.missingCode()
    return { text: code, number: typeof value === 'number' }
  },
  schema: z.string().describe('The code as texted (a JSON number gets its leading zeros back).'),
  errors: [e.missingCode(), e.invalidCode()],
})

export function codeRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  return [
    vendorRoute({
      method: 'POST',
      url: '/codes',
      summary: 'Text a verification code (jsms-api.md §2.1)',
      description:
        'Sends a 6-digit code with a verification template (type 1). The code is not in the answer: ' +
        'read it with `GET /_sandbox/sms/codes/latest?mobile=…`. Lifetime: the `ttl` given, else the ' +
        "template's, else 300 s.",
      // `ttl` is not documented for /v1/codes, but the Java client sends it; honoured when valid.
      reads: { body: smsBody({ mobile, temp_id: tempId, sign_id: signId, ttl: ttl() }) },
      checks: templateSend,
      answer: msgIdAnswer,
      handler: async (req, { body }) => {
        const { mobile } = body
        const template = resolveTemplate(deps, req.tenant, body.temp_id, [1])
        const sign = resolveSign(deps, req.tenant, body.sign_id)
        const code = generateCode()
        const content = renderTemplateMessage(deps, req.tenant, template, sign, { code })
        const lifetime = body.ttl ?? (template.ttl || SMS_LIMITS.defaultCodeTtlSeconds)
        const msgId = await store.write(() => {
          const now = req.tenant.now()
          const id = deliver(
            deps,
            req.tenant,
            { mobile, kind: 'code', template, sign, para: { code }, content },
            now,
          )
          store.codes.insert({
            msgId: id,
            appKey: req.tenant.app.appKey,
            mobile,
            code,
            expiresAt: now + lifetime * 1000,
          })
          return id
        })
        return { msg_id: msgId }
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/voice_codes',
      summary: 'Call with a voice verification code (jsms-api.md §2.2)',
      reads: {
        body: smsBody({ mobile, code: voiceCode, voice_lang: voiceLang, ttl: ttl('Seconds; default 60.') }),
      },
      // No template, so no unsubscribing (a marketing matter): the frequency, then the money.
      checks: [e.outOfFreq(), e.noMoney()],
      answer: msgIdAnswer,
      handler: async (req, { body }) => {
        const { mobile } = body
        const ttl = body.ttl ?? SMS_LIMITS.defaultVoiceTtlSeconds
        const code = body.code ?? generateCode()
        const content = body.voice_lang(code)
        const msgId = await store.write(() => {
          const now = req.tenant.now()
          const outgoing = {
            mobile,
            kind: 'voice_code' as const,
            template: null,
            sign: null,
            para: null,
            content,
          }
          const id = deliver(deps, req.tenant, outgoing, now)
          store.codes.insert({
            msgId: id,
            appKey: req.tenant.app.appKey,
            mobile,
            code,
            expiresAt: now + ttl * 1000,
          })
          return id
        })
        return { msg_id: msgId }
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/codes/:msg_id/valid',
      summary: 'Check a code (jsms-api.md §2.3)',
      description: 'Once: a second correct check is 50012. Every failure carries `"is_valid": false`.',
      // Every failure, even of auth or body parsing, carries `"is_valid": false` (jsms-api.md §1.5).
      config: { errorExtra: { is_valid: false } },
      reads: {
        params: params({ msg_id: text('The msg_id the code was sent with.') }),
        body: smsBody({ code: codeToCheck }),
      },
      checks: [e.wrongMsgId(), e.verifiedCode(), e.expiredCode(), e.invalidCode()],
      answer: z.object({ is_valid: z.literal(true) }),
      handler: async (req, { params, body }) => {
        const { msg_id: msgId } = params
        const given = body.code
        // Check and mark in one write job: of two concurrent correct answers, one wins. A refusal
        // of a code the app sent is returned, not thrown, so that its code.verified event stays.
        const refused = await store.write({ announces: ['code.verified'] }, () => {
          const now = req.tenant.now()
          const { appKey } = req.tenant.app
          const stored = store.codes.get(appKey, msgId)
          if (!stored) throw e.wrongMsgId().because(`the app sent no code with msg_id ${msgId}`)
          const refusal = checkCode(stored, given, now)
          if (!refusal) store.codes.markVerified(msgId, now)
          const data = {
            msg_id: msgId,
            mobile: stored.mobile,
            is_valid: refusal === undefined,
            error: refusal ? { code: refusal.code, message: refusal.message } : null,
            verified_at: isoOrNull(refusal ? stored.verifiedAt : now),
            expires_at: iso(stored.expiresAt),
            checked_at: iso(now),
          }
          store.events.append({ appKey, type: 'code.verified', data, at: now })
          return refusal
        })
        if (refused) throw refused
        return { is_valid: true as const }
      },
    }),
  ]
}

/** Why a check of the code sent with `stored` fails (50012, 50011, 50010), or undefined: it is right. */
function checkCode(
  stored: { msgId: string; code: string; verifiedAt: number | null; expiresAt: number },
  given: { text: string; number: boolean },
  now: number,
): ApiError | undefined {
  const { msgId } = stored
  if (stored.verifiedAt !== null)
    return e.verifiedCode().because(`the code of ${msgId} was verified at ${iso(stored.verifiedAt)}`)
  if (now > stored.expiresAt)
    return e.expiredCode().because(`the code of ${msgId} expired at ${iso(stored.expiresAt)} (app clock)`)
  const code = given.number ? given.text.padStart(stored.code.length, '0') : given.text.trim()
  if (code !== stored.code) return e.invalidCode().because(`"${code}" is not the code sent with ${msgId}`)
  return undefined
}
