import { z } from 'zod'
import { optionalInt, optionalString } from '../../http/body/fields.js'
import { part } from '../../http/reads.js'
import { smsErrors } from '../errors.js'
import { type Body, smsObject } from '../fields.js'
import { charCount, SMS_LIMITS } from '../limits.js'
import { SIGNATURE_MARKS, signed } from '../sending/index.js'
import type { TemplateInput, TemplateType } from './table.js'

// The template rules of jsms-api.md §2.9 and the seed's table (sms-service.md §7, §8: the seed's
// 500-character limits win over the docs' 350 and 100). The fields depend on each other (the
// variables on the type, the remark on the variables), so the body is read by one hand-written
// reader, declared with what it takes and refuses.

const e = smsErrors
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g
// Notification and marketing variables: letters and digits, `_` inside but not at either end.
const VARIABLE = /^[A-Za-z0-9](?:[A-Za-z0-9_]*[A-Za-z0-9])?$/
// The only variable of a verification-code template.
const CODE_VARIABLE = 'code'
// A link variable must be named `url` and its link declared in the remark (50053).
const LINK_VARIABLE = 'url'

/** A template create or modify body (jsms-api.md §2.9), in the order a reviewer rejects one. */
export const templateBody = part({
  in: 'body',
  read: req => readTemplateInput(smsObject.read(req.body)),
  schema: z.object({
    template: z.string().describe('At most 500 characters with the signature; `{{name}}` placeholders.'),
    type: z
      .union([z.literal(1), z.literal(2), z.literal(3)])
      .describe('1 verification code, 2 notification, 3 marketing.'),
    ttl: z
      .int()
      .min(1)
      .max(SMS_LIMITS.maxTtlSeconds)
      .describe('Verification templates: the code lifetime, seconds.')
      .optional(),
    remark: z
      .string()
      .max(SMS_LIMITS.maxRemarkLength)
      .describe('Required when the template has a `{{url}}` placeholder.')
      .optional(),
  }),
  errors: [
    e.templateIsEmpty(),
    e.templateTooLong(),
    e.invalidBody(),
    e.templateContainsSpecialSymbol(),
    e.templateParameterInvalid(),
    e.specialTemplateParameterNeedRemark(),
    e.remarkTooLong(),
    e.invalidTtlValue(),
  ],
})

function readTemplateInput(body: Body): TemplateInput {
  const template = optionalString(body.template, smsErrors.invalidBody) ?? ''
  if (template.trim() === '') throw smsErrors.templateIsEmpty()
  if (charCount(template) > SMS_LIMITS.maxTemplateLength)
    throw smsErrors
      .templateTooLong()
      .because(`the template is ${charCount(template)} characters, over ${SMS_LIMITS.maxTemplateLength}`)
  const type = optionalInt(body.type, smsErrors.invalidBody)
  if (type !== 1 && type !== 2 && type !== 3)
    throw smsErrors.invalidBody().because('field `type`: must be 1 (code), 2 (notification) or 3 (marketing)')
  if (SIGNATURE_MARKS.test(template)) throw smsErrors.templateContainsSpecialSymbol()
  const names = variablesOf(template, type)
  const remark = optionalString(body.remark, smsErrors.invalidBody) ?? ''
  if (names.includes(LINK_VARIABLE) && remark.trim() === '')
    throw smsErrors
      .specialTemplateParameterNeedRemark()
      .because('the template has {{url}}: give the link in `remark`')
  if (charCount(remark) > SMS_LIMITS.maxRemarkLength) throw smsErrors.remarkTooLong()
  // ttl matters only to verification codes; the other types ignore whatever the client sent
  // (C# sends `"ttl":0` with every template).
  let ttl = 0
  if (type === 1) {
    const given = optionalInt(body.ttl, smsErrors.invalidTtlValue)
    if (given === undefined || given <= 0 || given > SMS_LIMITS.maxTtlSeconds)
      throw smsErrors.invalidTtlValue()
    ttl = given
  }
  return { template, type, ttl, remark }
}

/**
 * The variable names of a template (50044 when one is malformed). A verification template uses
 * `{{code}}` and only that (it may repeat), since the platform fills it with the code it makes.
 */
function variablesOf(template: string, type: TemplateType): string[] {
  const names = [...template.matchAll(PLACEHOLDER)].map(m => m[1]!.trim())
  // Braces left over once the placeholders are gone are a placeholder gone wrong: `{{a`, `b}}`.
  const rest = template.replace(PLACEHOLDER, '')
  if (rest.includes('{{') || rest.includes('}}')) throw smsErrors.templateParameterInvalid()
  if (type === 1) {
    if (names.length === 0 || names.some(n => n !== CODE_VARIABLE))
      throw smsErrors
        .templateParameterInvalid()
        .because(`a verification template (type 1) takes {{${CODE_VARIABLE}}} and nothing else`)
  } else if (names.some(n => !VARIABLE.test(n))) {
    throw smsErrors.templateParameterInvalid()
  }
  return [...new Set(names)]
}

/** 500 characters at most counting the app's signature as the handset shows it (50043). */
export function checkSignedLength(template: string, sign: string): void {
  const length = charCount(signed(sign, template))
  if (length > SMS_LIMITS.maxTemplateLength)
    throw smsErrors
      .templateTooLong()
      .because(
        `with the signature 【${sign}】 the template is ${length} characters, over ${SMS_LIMITS.maxTemplateLength}`,
      )
}
