import { admin, checkCalls, jpush, jsms } from './catalogue.js'
import {
  type Answer,
  type Call,
  called,
  flatError,
  nestedError,
  noTrailingSlash,
  problems,
  type Read,
  rateHeaders,
  readError,
  req,
  throwing,
} from './decoder.js'

// cavlabs/jiguang-sdk-go at 7e0ebcfea509bad92981094e094520e3bf57e37b. Paths below are under api/.
//
// Its decoder: client.go:119-150 keeps status, headers and raw body of every answer, whatever its
// status; each call then json.Unmarshal's the body into its result struct (e.g.
// jpush/push/v3_send.go:61-66), whose `Error *api.CodeError` is `error` (errors.go:77-80:
// {"code":int,"message":string}). So a failure is read from the nested envelope on every status,
// 5xx included, and Go's encoding/json binds strictly: a string where an int is declared (or the
// reverse) fails the whole call. Calls answered with no content skip the unmarshal
// (response.go:32-34, e.g. jpush/device/v3_set_device.go:58). The device calls that can name
// unknown devices read `error.illegal_rids` as []string (jpush/device/v3_set_tag.go:94-98,
// v3_delete_aliases.go:94). Template sends and push plans read a flat {code,message} too
// (jpush/push/v3_template_send.go:96-121: `error` if present, else strconv.Atoi of `code`, a JSON
// number; jpush/push/v3_create_plan.go:67-70 embeds CodeError). rate.go:40-52 reads
// X-Rate-Limit-Limit, -Remaining and -Reset with strconv.Atoi/ParseInt on every answer.

/** The nested envelope, Go-strict, with illegal_rids as []string when present. */
function goError(a: Answer): Read {
  const found = problems('go', a.body, {
    error: { code: 'long', message: 'string', 'illegal_rids?': 'strings' },
  })
  if (found.length > 0) throw new Error(`Go cannot read the error: ${found.join('; ')}`)
  return nestedError('go', a.body)
}

/** v3_template_send.go:96-121: `error` when present, else a flat code (a JSON number) and message. */
const templateError = (a: Answer): Read =>
  a.body && typeof a.body === 'object' && 'error' in a.body ? goError(a) : flatError('go', a.body)

const client = throwing({ runtime: 'go', error: goError, rate: a => rateHeaders(a.headers) })

const flat = readError(a => flatError('go', a.body))
const template = readError(templateError)

// The catalogue's endpoints as this client calls them, in the order of its packages.
const calls: Call[] = [
  called(jpush.push, 'jpush/push/v3_send.go:40-67 → SendResult :121-126'),
  called(jpush.validate, 'jpush/push/v3_validate_send.go:39-65 → SendResult'),
  called(jpush.cid, 'jpush/push/v3_get_cid.go:45-54, jpush/schedule/v3_get_cid.go:46'),
  called(jpush.quota, 'jpush/push/v3_get_quota.go:45-127 (QuotaGetResult, total/used *int64)'),
  called(jpush.withdraw, 'jpush/push/v3_withdraw_message.go:46-66 (no content skips the unmarshal)'),
  called(jpush.batchRegid, 'jpush/push/v3_batch_send.go:68-190'),
  called(jpush.batchAlias, 'jpush/push/v3_batch_send.go:68-190'),
  called(jpush.template, 'jpush/push/v3_template_send.go:59-163 (flat code/message read)', {
    decode: template,
  }),
  called(
    jpush.templateSchedule,
    'jpush/schedule/v3_template_send.go:66 (flat code/message, as the push one)',
    {
      decode: template,
    },
  ),
  called(jpush.pushFile, 'jpush/push/v3_send_by_file.go:56 → SendResult'),
  called(
    jpush.plans,
    'jpush/push/v3_create_plan.go:45-70, v3_update_plan.go:44, v3_list_plans.go:50-77 (flat CodeError)',
    { decode: flat },
  ),
  called(jpush.groupPush, 'jpush/gpush/v3_send.go:56'),
  called(jpush.groupPushFile, 'jpush/gpush/v3_send_by_file.go:56'),
  called(jpush.scheduleCreate, 'jpush/schedule/v3_send.go:57-67 → SendResult :111-115'),
  called(jpush.scheduleList, 'jpush/schedule/v3_get_schedules.go:50-72'),
  called(jpush.scheduleGet, 'jpush/schedule/v3_get_schedule.go:44'),
  called(jpush.scheduleMsgIds, 'jpush/schedule/v3_get_schedule_msgids.go:47-115'),
  called(jpush.schedulePut, 'jpush/schedule/v3_update_schedule.go:53'),
  called(jpush.scheduleDelete, 'jpush/schedule/v3_delete_schedule.go:44'),
  called(jpush.deviceGet, 'jpush/device/v3_get_device.go:44-66'),
  called(jpush.devicePost, 'jpush/device/v3_set_device.go:48-62, v3_clear_device.go:110-124'),
  called(jpush.aliasGetNew, 'jpush/device/v3_get_alias.go:52-79'),
  called(jpush.aliasDelete, 'jpush/device/v3_delete_alias.go:50-63'),
  called(jpush.aliasRemove, 'jpush/device/v3_delete_aliases.go:53-98 (illegal_rids)'),
  called(jpush.tagList, 'jpush/device/v3_get_tags.go:39-58', { url: noTrailingSlash }),
  called(jpush.tagHas, 'jpush/device/v3_get_tag.go:47-66'),
  called(jpush.tagPost, 'jpush/device/v3_set_tag.go:56-98 (illegal_rids)'),
  called(jpush.tagDelete, 'jpush/device/v3_delete_tag.go:50-63'),
  called(jpush.deviceStatus, 'jpush/device/v3_get_device_status.go:49-118 (Online bool, LastOnlineTime)'),
  called(jpush.testDevices, 'jpush/device/v3_add_test_device.go:47-73, v3_list_test_devices.go:73-104'),
  called(jpush.receivedDetail, 'jpush/report/v3_get_received_detail.go:51-92 (a list; counts *uint64)'),
  called(jpush.statusMessage, 'jpush/report/v3_get_message_status.go:52-118'),
  called(jpush.messagesDetail, 'jpush/report/v3_get_message_detail.go:49-107'),
  called(jpush.users, 'jpush/report/v3_get_user_detail.go:65-150'),
  called(jpush.groupMessagesDetail, 'jpush/greport/v3_get_message_detail.go:50'),
  called(jpush.groupUsers, 'jpush/greport/v3_get_user_detail.go:66'),
  called(jpush.filesUpload, 'jpush/file/v3_upload_file.go:77'),
  called(jpush.filesList, 'jpush/file/v3_get_files.go:39'),
  called(jpush.file, 'jpush/file/v3_get_file.go:45, v3_delete_file.go:49'),
  called(jpush.imagesByUrls, 'jpush/image/v3_add_by_url.go:48, v3_update_by_url.go:47'),
  called(jpush.imagesByFiles, 'jpush/image/v3_add_by_file.go:77, v3_update_by_file.go:75'),
  // JSMS v1: the same CodeError under `error` (jsms/m_send.go:24-28; msg_id a string or a number, :30-64).
  called(jsms.codes, 'jsms/v1_send_code.go:44-58 → m_send.go sendResult'),
  called(jsms.valid, 'jsms/v1_verify_code.go:47-74 (is_valid bool)', {
    // A wrong code is answered 403 with is_valid false, which the SDK returns as its result.
    success: {
      request: ctx => req('POST', `/v1/codes/${ctx.codeMsgId}/valid`, { code: '000000' }),
      shape: { is_valid: 'boolean' },
      status: 403,
    },
  }),
  called(jsms.voiceCodes, 'jsms/v1_send_voice_code.go:52'),
  called(jsms.messages, 'jsms/v1_send_message.go:44'),
  called(jsms.messagesBatch, 'jsms/v1_send_batch_message.go:45-93 (counts *uint64, recipients)'),
  called(jsms.schedule, 'jsms/v1_send_schedule.go:45-73'),
  called(jsms.schedulePut, 'jsms/v1_update_schedule.go:47'),
  called(jsms.scheduleBatch, 'jsms/v1_send_batch_schedule.go:46'),
  called(jsms.scheduleBatchPut, 'jsms/v1_update_batch_schedule.go:47'),
  called(jsms.scheduleGet, 'jsms/v1_get_schedule.go:45-74 (send_time a LocalDateTime, temp_id int64)'),
  called(jsms.scheduleDelete, 'jsms/v1_delete_schedule.go:44'),
  called(jsms.accountsDev, 'jsms/v1_get_dev_balance.go:45-67 (*uint64)'),
  called(jsms.accountsApp, 'jsms/v1_get_app_balance.go:41-63 (*uint64)'),
  called(jsms.templateCreate, 'jsms/v1_create_update_template.go:91-128 (temp_id int64)'),
  called(jsms.templatePut, 'jsms/v1_create_update_template.go:91-128 (temp_id int64)'),
  called(jsms.templateGet, 'jsms/v1_get_template.go:45-69'),
  called(jsms.templateDelete, 'jsms/v1_delete_template.go:45-65'),
  called(jsms.signCreate, 'jsms/v1_create_update_sign.go:71-81 (the same CodeError)'),
  called(jsms.signUpdate, 'jsms/v1_create_update_sign.go:71-81 (the same CodeError)'),
  called(jsms.signGet, 'jsms/v1_get_sign.go:45-108 (is_default, use_status ints)'),
  called(jsms.signDelete, 'jsms/v1_delete_sign.go:45'),
  called(jsms.report, 'jsms/v1_get_report.go:42-81 (a list, or {error})'),
  called(jsms.reply, 'jsms/v1_get_reply.go:42'),
  // The Admin API: HTTP 200 with an error body for 1010-1015; Go reads `error` whatever the status.
  called(admin.create, 'jpush/admin/v1_create_app.go:42-74'),
  called(admin.delete, 'jpush/admin/v1_delete_app.go:42-63'),
  called(admin.certificate, 'jpush/admin/v1_upload_certificate.go:82-111'),
]

checkCalls(client, calls)
