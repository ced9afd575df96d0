import type { PipelineDeps } from '../../deps.js'
import type { Bucket } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'
import type { Tenant } from '../../tenancy.js'
import { localDayStart } from '../../time.js'
import { smsErrors } from '../errors.js'
import { billedUnits, charCount, ONE_DAY, SMS_LIMITS, TEN_MINUTES } from '../limits.js'
import { recordReport, reportStatusFor } from '../reports/index.js'
import type { MessageKind, MessageStore } from './messages-table.js'

// A template and a signature as their features' tables read them, named through the store:
// sms/templates imports sending (its rules), so sending does not import it back.
export type SentTemplate = NonNullable<ReturnType<Store['templates']['get']>>
export type SentSign = NonNullable<ReturnType<Store['signs']['get']>>
type Template = SentTemplate
type Sign = SentSign
type TemplateType = Template['type']

// The send pipeline shared by immediate and scheduled sends: resolve and render outside the
// write (whole-request errors), then `deliver` inside it (per-recipient errors: unsubscribed,
// frequency, balance), so a failure stores and charges nothing. `refusals` names what each step
// answers, in its order, for the routes' declarations (the OpenAPI document's failures).

const e = smsErrors

/** What each step of a send refuses, in the order it checks. */
export const refusals = {
  /** resolveTemplate */
  template: [e.invalidTempId(), e.templateAuditing(), e.templateNotPass(), e.wrongTemplateType()],
  /** resolveSign */
  sign: [e.signaturesNotExist(), e.signatureNotSet()],
  /** renderTemplateMessage: fillTemplate, then checkContent */
  render: [
    e.parametersIsEmpty(),
    e.parametersNotAllReplaced(),
    e.contentContainsSpecialSymbol(),
    e.invalidContentLength(),
    e.hasBlackWord(),
  ],
  /** deliver, inside the write */
  deliver: [e.unsubscribedMobile(), e.outOfFreq(), e.noMoney()],
}

/** Everything a template send checks after reading its body, in order. */
export const templateSend = [...refusals.template, ...refusals.sign, ...refusals.render, ...refusals.deliver]

/** A template the app may send through this endpoint (50013, 50020, 50021, 50025). */
export function resolveTemplate(
  deps: PipelineDeps,
  tenant: Tenant,
  tempId: number,
  allowed: TemplateType[],
): Template {
  const t = deps.store.templates.get(tenant.app.appKey, tempId)
  if (!t) throw smsErrors.invalidTempId().because(`the app has no template ${tempId}`)
  if (t.status === 0) throw smsErrors.templateAuditing().because(`template ${tempId} is still under review`)
  if (t.status === 2)
    throw smsErrors
      .templateNotPass()
      .because(`template ${tempId} was rejected in review${t.refuseReason ? `: "${t.refuseReason}"` : ''}`)
  if (!allowed.includes(t.type))
    throw smsErrors
      .wrongTemplateType()
      .because(
        `template ${tempId} is of type ${t.type} (${TEMPLATE_TYPES[t.type]}); this endpoint sends type ${allowed.join(' or ')}`,
      )
  return t
}

/** The signature to use: the one named (approved, 50051) or the app's default (50046). */
export function resolveSign(deps: PipelineDeps, tenant: Tenant, signId: number | undefined): Sign {
  const { signs } = deps.store
  if (signId === undefined) {
    const sign = signs.getDefault(tenant.app.appKey)
    if (sign?.status !== 1)
      throw smsErrors
        .signatureNotSet()
        .because(
          sign
            ? `the default signature ${sign.signId} is ${reviewState(sign)}`
            : 'the app has no default signature (and the request named no sign_id)',
        )
    return sign
  }
  const sign = signs.get(tenant.app.appKey, signId)
  if (sign?.status !== 1)
    throw smsErrors
      .signaturesNotExist()
      .because(sign ? `signature ${signId} is ${reviewState(sign)}` : `the app has no signature ${signId}`)
  return sign
}

// Per app object: the cached app is shared by every request until its settings change.
const lowerCasedWords = new WeakMap<object, string[]>()

/** The global and the app's sensitive words, lower-cased for checkContent. */
export function sensitiveWordsOf(deps: PipelineDeps, tenant: Tenant): readonly string[] {
  let words = lowerCasedWords.get(tenant.app)
  if (!words) {
    words = [...deps.sensitiveWords, ...tenant.app.sensitiveWords].map(w => w.toLowerCase())
    lowerCasedWords.set(tenant.app, words)
  }
  return words
}

/** The signed text of a template message (50022, 50023, 50037, 50038, 50054). */
export function renderTemplateMessage(
  deps: PipelineDeps,
  tenant: Tenant,
  template: Template,
  sign: Sign,
  para: Record<string, string>,
): string {
  const content = signed(sign.sign, fillTemplate(template.template, para))
  checkContent(content, sensitiveWordsOf(deps, tenant))
  return content
}

// Template texts: placeholders, parameters, signature marks, length and sensitive words.

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g
// The vendor's signature marks 【 and 】; no parameter or template may contain them (50052, 50054).
// Escaped: the bundle stays ASCII (scripts/bundle.ts).
export const SIGNATURE_MARKS = /[\u3010\u3011]/

// Every send of a template parses the same text: its placeholders are remembered (bounded).
const parsed = new Map<string, readonly string[]>()

/** The distinct `{{name}}` placeholders of a template, in order. */
export function placeholders(template: string): readonly string[] {
  let names = parsed.get(template)
  if (!names) {
    names = [...new Set([...template.matchAll(PLACEHOLDER)].map(m => m[1]!))]
    if (parsed.size >= 10_000) parsed.clear()
    parsed.set(template, names)
  }
  return names
}

/** Fills a template, enforcing the parameter rules (50022, 50023, 50054). */
export function fillTemplate(template: string, para: Record<string, string>): string {
  const names = placeholders(template)
  if (names.length > 0 && Object.keys(para).length === 0)
    throw smsErrors.parametersIsEmpty().because(`temp_para is empty; the template needs ${names.join(', ')}`)
  for (const name of names) {
    const value = para[name]
    if (value === undefined)
      throw smsErrors.parametersNotAllReplaced().because(`temp_para has no value for {{${name}}}`)
    if (value.trim() === '') throw smsErrors.parametersIsEmpty().because(`temp_para.${name} is blank`)
    if (SIGNATURE_MARKS.test(value))
      throw smsErrors.contentContainsSpecialSymbol().because(`temp_para.${name} contains 【 or 】`)
  }
  return template.replace(PLACEHOLDER, (_m, name: string) => para[name] ?? '')
}

/** The text as the handset shows it: the signature in its marks, then the body. */
export function signed(sign: string, body: string): string {
  return `【${sign}】${body}`
}

/**
 * Final checks on a rendered text: length (50038) and sensitive words (50037). `sensitiveWords`
 * are compared case-insensitively: pass them lower-cased (sensitiveWordsOf in send.ts does).
 */
export function checkContent(content: string, sensitiveWords: readonly string[]): void {
  const length = charCount(content)
  if (length > SMS_LIMITS.maxContentLength)
    throw smsErrors
      .invalidContentLength()
      .because(`the text is ${length} characters, over ${SMS_LIMITS.maxContentLength}`)
  const lower = content.toLowerCase()
  for (const w of sensitiveWords)
    if (lower.includes(w))
      throw smsErrors.hasBlackWord().because(`the text contains the sensitive word "${w}"`)
}

// Frequency limits.

export interface FrequencySubject {
  appKey: string
  mobile: string
  kind: 'code' | 'voice_code' | 'template'
  /** Template type: 1 verification, 2 notification, 3 marketing. */
  tempType: number | null
  content: string
}

/**
 * The per-app, per-mobile limits of sms-service.md §8 (50009). Windows are counted from the
 * messages actually sent, so they are exact, durable and move with the app's clock. Must run
 * inside the write job that then stores the message, so two requests cannot both pass the edge.
 */
export function checkFrequency(
  messages: MessageStore,
  s: FrequencySubject,
  now: number,
  timeZone: string,
): void {
  const { appKey, mobile } = s
  // The seed's rule and the count that reached it, for the journal (errors.ts: never the answer).
  const over = (count: number, rule: string) =>
    smsErrors
      .outOfFreq()
      .because(`mobile ${mobile} had ${count} ${rule}: JSMS frequency limit (docs/fidelity.md)`)
  if (s.kind === 'voice_code') {
    const recent = messages.countKindSince(appKey, mobile, 'voice_code', now - SMS_LIMITS.voiceIntervalMs)
    if (recent > 0)
      throw over(
        recent,
        `voice code in the last ${SMS_LIMITS.voiceIntervalMs / 1000} s (at least 20 s apart)`,
      )
    return
  }
  if (s.kind === 'code' || s.tempType === 1) {
    const codes = messages.countCodesSince(appKey, mobile, now - ONE_DAY)
    if (codes >= SMS_LIMITS.codesPer24h)
      throw over(codes, `verification codes in 24 hours (${SMS_LIMITS.codesPer24h} allowed)`)
    return
  }
  if (s.tempType === 2) {
    // "per day" is the calendar day in the configured zone (Beijing time by default).
    const dayStart = localDayStart(now, timeZone) - 1
    const sent = messages.countNotifications(appKey, mobile, s.content, now - TEN_MINUTES, dayStart)
    if (sent.same >= SMS_LIMITS.notificationSameContentPer10Min)
      throw over(
        sent.same,
        `notifications with this content in 10 minutes (${SMS_LIMITS.notificationSameContentPer10Min} allowed)`,
      )
    if (sent.day >= SMS_LIMITS.notificationPerDay)
      throw over(sent.day, `notifications today (${SMS_LIMITS.notificationPerDay} allowed)`)
    return
  }
  if (s.tempType === 3) {
    const marketing = messages.countTypeSince(appKey, mobile, 3, now - TEN_MINUTES)
    if (marketing >= SMS_LIMITS.marketingPer10Min)
      throw over(marketing, `marketing texts in 10 minutes (${SMS_LIMITS.marketingPer10Min} allowed)`)
  }
}

/** Which buckets could not pay, and what each held (jsms-api.md §2.7: NULL is no quota). */
function noMoneyReason(deps: PipelineDeps, tenant: Tenant, bucket: Bucket, units: number): string {
  const { apps } = deps.store
  const app = apps.balances(tenant.app.appKey)
  const dev = apps.developerBalances(tenant.app.devKey)
  const held = (v: number | null | undefined) => (v === null || v === undefined ? 'no quota' : String(v))
  return (
    `${units} unit(s) of ${bucket}: the app's ${bucket} bucket holds ${held(app?.[bucket])}, its balance ` +
    `${held(app?.balance)}; developer ${tenant.app.devKey}'s ${bucket} ${held(dev?.[bucket])}, balance ${held(dev?.balance)}`
  )
}

/** A signature's review state, in words. */
const reviewState = (s: Sign) =>
  s.status === 0 ? 'still under review' : `rejected in review${s.refuseReason ? `: "${s.refuseReason}"` : ''}`

const TEMPLATE_TYPES: Record<number, string> = { 1: 'verification code', 2: 'notification', 3: 'marketing' }

function bucketOf(kind: MessageKind, tempType: number | null): Bucket {
  if (kind === 'voice_code') return 'voice'
  return tempType === 3 ? 'market' : 'industry'
}

export interface Outgoing {
  mobile: string
  kind: MessageKind
  template: Template | null
  sign: Sign | null
  para: Record<string, string> | null
  content: string
  tag?: string | null
  scheduleId?: string | null
  /** Allocated beforehand (a scheduled recipient's id is shown before the task runs). */
  msgId?: string
}

/**
 * Stores and charges one message: call it inside a write job (store.write). Throws 50024, 50009
 * or 50014 without side effects when the message may not go out: every check comes before the
 * first write, so a batch needs no savepoint per recipient (batch.ts, fire-schedule.ts). Keep it so.
 */
export function deliver(deps: PipelineDeps, tenant: Tenant, m: Outgoing, now: number): string {
  const { store, config } = deps
  const { appKey } = tenant.app
  const tempType = m.template?.type ?? null
  if (tempType === 3 && store.unsubscribed.has(appKey, m.mobile))
    throw smsErrors
      .unsubscribedMobile()
      .because(`mobile ${m.mobile} unsubscribed from the app's marketing texts`)
  checkFrequency(
    store.messages,
    { appKey, mobile: m.mobile, kind: m.kind, tempType, content: m.content },
    now,
    config.timeZone,
  )
  const units = m.kind === 'voice_code' ? 1 : billedUnits(m.content)
  const bucket = bucketOf(m.kind, tempType)
  if (!store.apps.charge(tenant.app, bucket, units))
    throw smsErrors.noMoney().because(noMoneyReason(deps, tenant, bucket, units))
  const msgId = m.msgId ?? String(store.sequences.next('msg_id'))
  store.messages.insert({
    msgId,
    appKey,
    mobile: m.mobile,
    kind: m.kind,
    tempId: m.template?.tempId ?? null,
    tempType,
    signId: m.sign?.signId ?? null,
    tempPara: m.para,
    content: m.content,
    units,
    tag: m.tag ?? null,
    scheduleId: m.scheduleId ?? null,
    createdAt: now,
  })
  recordReport(deps, tenant.app, { msgId, mobile: m.mobile, status: reportStatusFor(m.mobile) }, now)
  return msgId
}
