import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { smsErrors as e } from '../errors.js'

// Templates and signatures (jsms-api.md §2.9, §2.10): each new or modified one is under review
// for REVIEW_DELAY_MS of the app's clock (or until decided through /_sandbox/sms/…/review).

const template = z.object({
  template: z.string().describe('At most 500 characters with the signature; `{{name}}` placeholders.'),
  type: z
    .union([z.literal(1), z.literal(2), z.literal(3)])
    .describe('1 verification code, 2 notification, 3 marketing.'),
  ttl: z.int().min(1).max(86400).describe('Verification templates: the code lifetime, seconds.').optional(),
  remark: z.string().max(500).describe('Required when the template has a `{{url}}` placeholder.').optional(),
})
const tempIdAnswer = z.object({ temp_id: z.int() })
const tempIdParam = z.object({ temp_id: z.string().describe('The template id.') })

/** The creation rules, in the order they are checked (README: Templates). */
const rules = [
  e.templateIsEmpty(),
  e.templateTooLong(),
  e.invalidBody(),
  e.templateContainsSpecialSymbol(),
  e.templateParameterInvalid(),
  e.specialTemplateParameterNeedRemark(),
  e.remarkTooLong(),
  e.invalidTtlValue(),
  e.signatureNotSet(),
]

export const createTemplateDocs: RouteDocs = {
  summary: 'Create a template, under review (jsms-api.md §2.9)',
  body: template,
  answers: { 200: tempIdAnswer },
  errors: rules,
}

export const modifyTemplateDocs: RouteDocs = {
  summary: 'Replace a rejected template; it is under review again (jsms-api.md §2.9)',
  params: tempIdParam,
  body: template,
  answers: { 200: tempIdAnswer },
  errors: [e.invalidTempId(), e.modifyTemplateNotAllow(), ...rules],
}

export const modifyTemplateLegacyDocs: RouteDocs = {
  ...modifyTemplateDocs,
  summary: 'Replace a rejected template, its id in the body (Java client up to 1.2.7)',
  params: undefined,
  body: template.extend({ temp_id: z.int() }),
}

export const readTemplateDocs: RouteDocs = {
  summary: 'Read a template (jsms-api.md §2.9)',
  params: tempIdParam,
  answers: {
    200: tempIdAnswer.extend({
      template: z.string(),
      type: z.int(),
      ttl: z.int(),
      remark: z.string(),
      status: z.int().describe('0 under review, 1 approved, 2 rejected.'),
    }),
  },
  errors: [e.invalidTempId()],
}

export const deleteTemplateDocs: RouteDocs = {
  summary: 'Delete a template (jsms-api.md §2.9)',
  params: tempIdParam,
  answers: { 200: { description: 'Deleted: an empty body.', media: null } },
  errors: [e.invalidTempId()],
}

const signForm = z.object({
  sign: z.string().describe('2–8 characters: Chinese, letters, digits.'),
  type: z.int().min(1).max(7).describe('1 company … 7 other (jsms-api.md §3).').optional(),
  remark: z.string().max(100).optional(),
  image0: z.string().meta({ contentMediaType: 'application/octet-stream' }).optional(),
  images: z
    .string()
    .meta({ contentMediaType: 'application/octet-stream' })
    .describe("The Java client's name for its images (one part per file).")
    .optional(),
})
const signIdAnswer = z.object({ sign_id: z.int() })
const signIdParam = z.object({ sign_id: z.string().describe('The signature id.') })
const formErrors = [e.invalidSignature(), e.invalidImage(), e.otherSignaturesInAudit()]

export const createSignDocs: RouteDocs = {
  summary: 'Create a signature, under review (multipart form, jsms-api.md §2.10)',
  description: 'Images (`image0`…`image3`, or `images`): PNG, JPEG, GIF or BMP by their bytes, 2 MiB each.',
  body: signForm,
  bodyMedia: 'multipart/form-data',
  answers: { 200: signIdAnswer },
  errors: formErrors,
}

export const modifySignDocs: RouteDocs = {
  summary: 'Modify a signature: what the form leaves out is kept; review again (jsms-api.md §2.10)',
  params: signIdParam,
  body: signForm.partial(),
  bodyMedia: 'multipart/form-data',
  answers: { 200: signIdAnswer },
  errors: [e.invalidSignId(), ...formErrors],
}

export const readSignDocs: RouteDocs = {
  summary: 'Read a signature (jsms-api.md §2.10)',
  params: signIdParam,
  answers: {
    200: signIdAnswer.extend({
      sign: z.string(),
      status: z.int().describe('0 under review, 1 approved, 2 rejected.'),
      is_default: z.int().describe("1: the app's default signature."),
      use_status: z.int().describe('1: in use.'),
    }),
  },
  errors: [e.invalidSignId()],
}

export const deleteSignDocs: RouteDocs = {
  summary: 'Delete a signature (jsms-api.md §2.10)',
  params: signIdParam,
  answers: { 200: { description: 'Deleted: an empty body.', media: null } },
  errors: [e.invalidSignId(), e.defaultSignatureCannotBeDeleted()],
}
