import { checkCalls, jpush } from './catalogue.js'
import {
  type Answer,
  type Call,
  called,
  flatError,
  nestedError,
  noTrailingSlash,
  rateHeaders,
  readError,
  throwing,
  unknownKeys,
} from './decoder.js'

// jpush/jiguang-sdk-java at 940a46d15a1226977368daec0af2535cb7693a3a (the vendor's current Java
// SDK, 5.x: Feign interfaces, Jackson). Paths below are under jiguang-sdk/src/main/java/cn/jiguang/sdk/.
//
// Its decoders:
// - codec/ApiDecoder.java:31-43 decodes a 2xx with a plain `new ObjectMapper()` (:25), so a result
//   bean without @JsonIgnoreProperties(ignoreUnknown = true) fails on any key it does not declare
//   (`strict` below); and only when Content-Type starts with application/json (:48-51), else null.
// - codec/ApiErrorDecoder.java:59-68 reads every non-2xx as ApiErrorException.ApiError
//   (exception/ApiErrorException.java:74-98: {"msg_id"?, "error":{"code":Integer,"message":String}},
//   unknown keys ignored); without `error` the constructor (:26-27) throws and the decoder answers
//   its own 500 "unknown error" (ApiErrorDecoder.java:64-66, :87-89).
// - templateSend / scheduleTemplateSend (ApiErrorDecoder.java:38-54) read a flat TemplateResult
//   (bean/push/other/TemplateResult.java: code, message, message_id, schedule_id, trace_id; strict).
// - ApiErrorException.java:35-46 reads x-rate-limit-limit, -remaining and -reset as ints on every
//   failure (BaseResult.java does the same on a success).

const nested = (a: Answer) => nestedError('jackson', a.body)

/** ApiErrorDecoder.java:45-54: a flat TemplateResult, strict (no ignoreUnknown). */
const templateError = (a: Answer) => {
  const extra = unknownKeys(a.body, ['code', 'message', 'message_id', 'schedule_id', 'trace_id'])
  if (extra.length > 0) throw new Error(`TemplateResult does not know ${extra.join(', ')}`)
  return flatError('jackson', a.body)
}

const client = throwing({
  runtime: 'jackson',
  error: nested,
  rate: a => rateHeaders(a.headers),
  accepts: a =>
    String(a.headers['content-type']).startsWith('application/json') ? [] : ['not application/json'],
})

const template = readError(templateError)

// The catalogue's endpoints as this client calls them, in the order of its clients.
const calls: Call[] = [
  called(jpush.push, 'client/PushClient.java:22-24 → bean/push/PushSendResult.java:10-16 (strict)', {
    strict: ['sendno', 'msg_id'],
  }),
  called(jpush.validate, 'client/PushClient.java:42-44 → PushSendResult (strict)', {
    strict: ['sendno', 'msg_id'],
  }),
  called(
    jpush.scheduleCreate,
    'client/PushClient.java:30-32 → bean/push/SchedulePushSendResult.java:10-16 (strict)',
    {
      strict: ['schedule_id', 'name'],
    },
  ),
  called(jpush.cid, 'client/PushClient.java:34-40 → bean/push/other/CidGetResult.java:12-15 (strict)', {
    strict: ['cidlist'],
  }),
  called(jpush.withdraw, 'client/PushClient.java:46-48 (void: only failures decoded)'),
  called(
    jpush.quota,
    'client/PushClient.java:50-52 → bean/push/other/QuotaGetResult.java:11-51 (strict, nested too)',
    {
      strict: ['code', 'message', 'data'],
    },
  ),
  called(jpush.pushFile, 'client/PushClient.java:54-56 → PushSendResult (strict)'),
  called(jpush.filesUpload, 'client/PushClient.java:58-64 → bean/file/FileUploadResult.java:10-13'),
  called(jpush.filesList, 'client/PushClient.java:66-68 → bean/file/FilesGetResult.java:12-18 (strict)', {
    strict: ['total_count', 'files'],
  }),
  called(jpush.file, 'client/PushClient.java:70-76 → bean/file/FileGetResult.java:13-30'),
  called(
    jpush.imagesByUrls,
    'client/PushClient.java:78-84 → bean/image/ImageUrlAddResult.java, ImageUrlUpdateResult.java',
  ),
  called(
    jpush.imagesByFiles,
    'client/PushClient.java:86-92 → bean/image/ImageFileAddResult.java, ImageFileUpdateResult.java',
  ),
  called(
    jpush.batchRegid,
    'client/PushClient.java:94-100 → bean/push/batch/BatchPushSendResult.java:14-17, BatchPushResult.java:10-19',
  ),
  called(
    jpush.batchAlias,
    'client/PushClient.java:94-100 → bean/push/batch/BatchPushSendResult.java:14-17, BatchPushResult.java:10-19',
  ),
  called(
    jpush.template,
    'client/PushClient.java:102-104 → bean/push/TemplatePushSendResult.java:13-28 (strict); errors flat',
    { decode: template, strict: ['code', 'message', 'data'] },
  ),
  called(
    jpush.templateSchedule,
    'client/PushClient.java:106-108 → bean/push/ScheduleTemplatePushSendResult.java:13-28 (strict); errors flat',
    { decode: template },
  ),
  called(jpush.groupPush, 'client/GroupPushClient.java:13-15 → bean/push/GroupPushSendResult.java:17-26'),
  called(jpush.deviceGet, 'client/DeviceClient.java:16-18 → bean/device/DeviceGetResult.java:14-27'),
  called(jpush.devicePost, 'client/DeviceClient.java:20-26 (setDevice, clearDevice: void)'),
  called(
    jpush.aliasGetNew,
    'client/DeviceClient.java:28-30 → bean/device/AliasGetResult.java:15-30 (strict, Data strict)',
    { strict: ['data'] },
  ),
  called(jpush.aliasDelete, 'client/DeviceClient.java:32-38 (void)'),
  called(jpush.aliasRemove, 'client/DeviceClient.java:32-38 (void)'),
  called(jpush.tagList, 'client/DeviceClient.java:40-42 → bean/device/TagsGetResult.java:12-15 (strict)', {
    strict: ['tags'],
    url: noTrailingSlash,
  }),
  called(jpush.tagHas, 'client/DeviceClient.java:44-46 → bean/device/TagGetResult.java:10-13 (strict)', {
    strict: ['result'],
  }),
  called(jpush.tagPost, 'client/DeviceClient.java:48-54 (void)'),
  called(jpush.tagDelete, 'client/DeviceClient.java:48-54 (void)'),
  called(
    jpush.deviceStatus,
    'client/DeviceClient.java:56-58 → bean/device/DeviceStatusGetResult.java:19-37 (@JsonAnySetter)',
  ),
  called(
    jpush.receivedDetail,
    'client/ReportClient.java:17-19 → List<bean/report/ReceivedDetailGetResult.java:11-54>',
  ),
  called(
    jpush.statusMessage,
    'client/ReportClient.java:21-23 → Map<String, bean/report/MessageStatusGetResult.java:11-17> (strict)',
  ),
  called(
    jpush.messagesDetail,
    'client/ReportClient.java:25-27 → List<bean/report/MessageDetailGetResult.java:12-144>',
  ),
  called(jpush.users, 'client/ReportClient.java:29-31 → bean/report/UserDetailGetResult.java:17-34'),
]

checkCalls(client, calls)
