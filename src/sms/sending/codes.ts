import { randomInt } from 'node:crypto'
import type { AppDeps } from '../../deps.js'
import { optionalInt, optionalString } from '../../http/body/fields.js'
import { type RouteSpec, route } from '../../http/routes.js'
import { smsErrors } from '../errors.js'
import { readBody, readMobile, readSignId, readTempId, readTtl } from '../fields.js'
import { SMS_LIMITS } from '../limits.js'
import { sendCodeDocs, verifyCodeDocs, voiceCodeDocs } from './docs.js'
import { deliver, renderTemplateMessage, resolveSign, resolveTemplate } from './send.js'

/** Six digits: the Java client refuses to validate anything else (jsms-api.md §2.3). */
function generateCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0')
}

const VOICE_TEXT: Record<number, (code: string) => string> = {
  0: code => `您的语音验证码是${code.split('').join(' ')}`,
  1: code => `Your verification code is ${code.split('').join(' ')}`,
  2: code =>
    `您的语音验证码是${code.split('').join(' ')}. Your verification code is ${code.split('').join(' ')}`,
}

export function codeRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'POST',
      url: '/codes',
      docs: sendCodeDocs,
      handler: async req => {
        const body = readBody(req.body)
        const mobile = readMobile(body.mobile)
        const tempId = readTempId(body.temp_id)
        const signId = readSignId(body.sign_id)
        // Not documented for /v1/codes, but the Java client sends it; honoured when valid.
        const ttl = readTtl(body.ttl, SMS_LIMITS.maxTtlSeconds)
        const template = resolveTemplate(deps, req.tenant, tempId, [1])
        const sign = resolveSign(deps, req.tenant, signId)
        const code = generateCode()
        const content = renderTemplateMessage(deps, req.tenant, template, sign, { code })
        const lifetime = ttl ?? (template.ttl || SMS_LIMITS.defaultCodeTtlSeconds)
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
    },
    {
      method: 'POST',
      url: '/voice_codes',
      docs: voiceCodeDocs,
      handler: async req => {
        const body = readBody(req.body)
        const mobile = readMobile(body.mobile)
        const given = optionalString(body.code, smsErrors.invalidCodeType)
        if (given !== undefined && !/^\d+$/.test(given)) throw smsErrors.invalidCodeType()
        if (
          given !== undefined &&
          (given.length < SMS_LIMITS.voiceCodeMinDigits || given.length > SMS_LIMITS.voiceCodeMaxDigits)
        ) {
          throw smsErrors.invalidContentLength()
        }
        const lang = optionalInt(body.voice_lang, smsErrors.invalidVoiceLanguageType) ?? 0
        const say = VOICE_TEXT[lang]
        if (!say) throw smsErrors.invalidVoiceLanguageType()
        const ttl = readTtl(body.ttl, SMS_LIMITS.maxTtlSeconds) ?? SMS_LIMITS.defaultVoiceTtlSeconds
        const code = given ?? generateCode()
        const content = say(code)
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
    },
    route<{ Params: { msg_id: string } }>({
      method: 'POST',
      url: '/codes/:msg_id/valid',
      docs: verifyCodeDocs,
      // Every failure, even of auth or body parsing, carries `"is_valid": false` (jsms-api.md §1.5).
      config: { errorExtra: { is_valid: false } },
      handler: async req => {
        const { msg_id: msgId } = req.params
        const body = readBody(req.body)
        const code = optionalString(body.code, smsErrors.invalidCode)
        if (code === undefined) throw smsErrors.missingCode()
        // Check and mark in one write job: of two concurrent correct answers, one wins.
        await store.write(() => {
          const now = req.tenant.now()
          const stored = store.codes.get(req.tenant.app.appKey, msgId)
          if (!stored) throw smsErrors.wrongMsgId()
          if (stored.verifiedAt !== null) throw smsErrors.verifiedCode()
          if (now > stored.expiresAt) throw smsErrors.expiredCode()
          // A code sent as a JSON number (C#, Python callers) has lost its leading zeros.
          const given = typeof body.code === 'number' ? code.padStart(stored.code.length, '0') : code.trim()
          if (given !== stored.code) throw smsErrors.invalidCode()
          store.codes.markVerified(msgId, now)
        })
        return { is_valid: true }
      },
    }),
  ]
}
