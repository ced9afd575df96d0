import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { smsErrors as e } from '../errors.js'
import { failedRecipient, mobile, msgIdAnswer, recipients, signId, tempId, tempPara } from '../vocabulary.js'

// Codes, template messages and balances (jsms-api.md §2.1–§2.5, §2.7).

/** What every send checks of its template, signature, text and the app's money, in this order. */
const templateSend = [
  e.invalidTempId(),
  e.templateAuditing(),
  e.templateNotPass(),
  e.wrongTemplateType(),
  e.signaturesNotExist(),
  e.signatureNotSet(),
  e.parametersIsEmpty(),
  e.parametersNotAllReplaced(),
  e.contentContainsSpecialSymbol(),
  e.hasBlackWord(),
  e.unsubscribedMobile(),
  e.outOfFreq(),
  e.noMoney(),
]

export const sendCodeDocs: RouteDocs = {
  summary: 'Text a verification code (jsms-api.md §2.1)',
  description:
    'Sends a 6-digit code with a verification template (type 1). The code is not in the answer: ' +
    'read it with `GET /_sandbox/sms/codes/latest?mobile=…`. Lifetime: the `ttl` given, else the ' +
    "template's, else 300 s.",
  body: z.object({
    mobile,
    temp_id: tempId,
    sign_id: signId.optional(),
    ttl: z.int().min(1).max(86400).optional(),
  }),
  answers: { 200: msgIdAnswer },
  errors: [e.missingMobile(), e.invalidMobile(), e.missingTempId(), e.invalidTtlValue(), ...templateSend],
}

export const voiceCodeDocs: RouteDocs = {
  summary: 'Call with a voice verification code (jsms-api.md §2.2)',
  body: z.object({
    mobile,
    code: z.string().describe('4–8 digits; absent: a 6-digit code is generated.').optional(),
    voice_lang: z
      .union([z.literal(0), z.literal(1), z.literal(2)])
      .describe('0 Chinese, 1 English, 2 both.')
      .optional(),
    ttl: z.int().min(1).max(86400).describe('Seconds; default 60.').optional(),
  }),
  answers: { 200: msgIdAnswer },
  errors: [
    e.missingMobile(),
    e.invalidMobile(),
    e.invalidCodeType(),
    e.invalidContentLength(),
    e.invalidVoiceLanguageType(),
    e.invalidTtlValue(),
    e.outOfFreq(),
    e.noMoney(),
  ],
}

export const verifyCodeDocs: RouteDocs = {
  summary: 'Check a code (jsms-api.md §2.3)',
  description: 'Once: a second correct check is 50012. Every failure carries `"is_valid": false`.',
  params: z.object({ msg_id: z.string().describe('The msg_id the code was sent with.') }),
  body: z.object({
    code: z.string().describe('The code as texted (a JSON number gets its leading zeros back).'),
  }),
  answers: { 200: z.object({ is_valid: z.literal(true) }) },
  errors: [e.missingCode(), e.invalidCode(), e.wrongMsgId(), e.verifiedCode(), e.expiredCode()],
}

export const sendMessageDocs: RouteDocs = {
  summary: 'Send one template message (jsms-api.md §2.4)',
  body: z.object({ mobile, temp_id: tempId, sign_id: signId.optional(), temp_para: tempPara.optional() }),
  answers: { 200: msgIdAnswer },
  errors: [e.missingMobile(), e.invalidMobile(), e.missingTempId(), ...templateSend],
}

export const sendBatchDocs: RouteDocs = {
  summary: 'Send one template to many recipients (jsms-api.md §2.5)',
  description:
    'Recipients fail alone: `recipients` lists every one (failed ones with `error_code`, a string), ' +
    '`failure_recipients` repeats the failures as the Java client reads them.',
  body: z.object({
    temp_id: tempId,
    sign_id: signId.optional(),
    tag: z.string().max(10).describe('A label, not shown in the text.').optional(),
    recipients,
  }),
  answers: {
    200: z.object({
      success_count: z.int(),
      failure_count: z.int(),
      recipients: z.array(
        z.union([
          z.object({ msg_id: z.string(), mobile: z.string() }),
          failedRecipient.extend({ msg_id: z.string() }),
        ]),
      ),
      failure_recipients: z.array(failedRecipient),
    }),
  },
  errors: [e.missingTempId(), e.recipientsIsEmpty(), e.tooMuchRecipients(), ...templateSend],
}

const balance = z.int().nullable().describe('null: no quota allocated.')

export const appBalanceDocs: RouteDocs = {
  summary: "The app's balances (jsms-api.md §2.7)",
  answers: {
    200: z.object({ app_balance: balance, app_voice: balance, app_industry: balance, app_market: balance }),
  },
}

export const devBalanceDocs: RouteDocs = {
  summary: "The developer account's balances, with devKey:devSecret (jsms-api.md §2.7)",
  answers: {
    200: z.object({ dev_balance: balance, dev_voice: balance, dev_industry: balance, dev_market: balance }),
  },
}
