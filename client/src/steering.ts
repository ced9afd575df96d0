import type { Fault, FaultInput } from './app-types.js'
import type { Transport } from './http.js'
import type * as S from './steer-types.js'

// What a test decides in place of the real service: faults, devices, the carrier, handsets and
// the reviewer, and what the vendor's console makes (push templates, test devices). Grouped on the
// client as `faults`, `devices`, `sms`, `images`, `testDevices` and `pushTemplates`.

const id = (value: string | number) => encodeURIComponent(String(value))

/** The app's faults on /v1 and /v3 (README "Fault injection"). */
export const faultsOf = (http: Transport) => ({
  arm: (fault: FaultInput) => http.json<Fault>('POST', '/_sandbox/faults', { body: fault }),
  list: async () => (await http.json<{ faults: Fault[] }>('GET', '/_sandbox/faults')).faults,
  /** Disarms every fault of the app; answers how many there were. */
  disarm: async () => (await http.json<{ cleared: number }>('DELETE', '/_sandbox/faults')).cleared,
})

/** Push devices as a phone app registering with JPush makes them. */
export const devicesOf = (http: Transport) => ({
  register: (device: S.NewDevice) => http.json<S.Device>('POST', '/_sandbox/push/devices', { body: device }),
  list: async () => (await http.json<{ devices: S.Device[] }>('GET', '/_sandbox/push/devices')).devices,
  /** Online: what waits for it within its time_to_live is delivered now (`delivered`). */
  setOnline: (registrationId: string, online: boolean) =>
    http.json<S.DeviceChange>('PATCH', `/_sandbox/push/devices/${id(registrationId)}`, { body: { online } }),
  /** The device opens a push it received: counted by the statistics that report clicks. */
  click: (msgId: string, registrationId: string) =>
    http.json<S.Click>('POST', `/_sandbox/push/messages/${id(msgId)}/clicks`, {
      body: { registration_id: registrationId },
    }),
})

/** The carrier, the handsets and the reviewer of the SMS service. */
export const smsOf = (http: Transport) => ({
  /** The message's delivery report gets this status (4001–4100) when it falls due. */
  setReport: (msgId: string, status: number) =>
    http.json<S.SteeredReport>('POST', '/_sandbox/sms/reports', { body: { msg_id: msgId, status } }),
  /** A handset replies to the app (pulled by GET /v1/reply, or called back). */
  reply: (mobile: string, content: string) =>
    http.json<S.Replied>('POST', '/_sandbox/sms/replies', { body: { mobile, content } }),
  reviewTemplate: (tempId: number, status: S.Decision, refuseReason?: string) =>
    http.json<S.DecidedTemplate>('POST', `/_sandbox/sms/templates/${id(tempId)}/review`, {
      body: { status, refuse_reason: refuseReason },
    }),
  reviewSign: (signId: number, status: S.Decision, refuseReason?: string) =>
    http.json<S.DecidedSign>('POST', `/_sandbox/sms/signs/${id(signId)}/review`, {
      body: { status, refuse_reason: refuseReason },
    }),
})

/** Images of the image API, as the vendor never shows them: what each channel adopted, the files. */
export const imagesOf = (http: Transport) => ({
  list: async () => (await http.json<{ images: S.PushImage[] }>('GET', '/_sandbox/push/images')).images,
  get: (mediaId: string) => http.json<S.PushImage>('GET', `/_sandbox/push/images/${id(mediaId)}`),
})

/** The app's test devices: a push with options.test_model reaches only these. */
export const testDevicesOf = (http: Transport) => ({
  list: async () =>
    (await http.json<{ test_devices: S.TestDevice[] }>('GET', '/_sandbox/push/test-devices')).test_devices,
  /** Makes a device of the app a test device, or renames it. */
  set: (registrationId: string, deviceName: string) =>
    http.json<S.TestDevice>('PUT', `/_sandbox/push/test-devices/${id(registrationId)}`, {
      body: { device_name: deviceName },
    }),
  /** Makes a test device an ordinary one again (404 90043 if it was none). */
  remove: async (registrationId: string) => {
    await http.json('DELETE', `/_sandbox/push/test-devices/${id(registrationId)}`)
  },
})

/** Push templates, as the vendor's console makes them (POST /v3/push/template pushes them). */
export const pushTemplatesOf = (http: Transport) => ({
  list: async () =>
    (await http.json<{ templates: S.PushTemplate[] }>('GET', '/_sandbox/push/templates')).templates,
  /** A new template, with an id of 12 hex digits. */
  create: (template: S.PushTemplateInput) =>
    http.json<S.PushTemplate>('POST', '/_sandbox/push/templates', { body: template }),
  /** Makes or replaces the template of this id. */
  save: (templateId: string, template: S.PushTemplateInput) =>
    http.json<S.PushTemplate>('PUT', `/_sandbox/push/templates/${id(templateId)}`, { body: template }),
  remove: async (templateId: string) => {
    await http.json('DELETE', `/_sandbox/push/templates/${id(templateId)}`)
  },
})
