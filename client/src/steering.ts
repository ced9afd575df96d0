import type { Fault, FaultInput } from './app-types.js'
import type { Transport } from './http.js'
import type * as S from './steer-types.js'

// What a test decides in place of the real service: faults, devices, the carrier, handsets and
// the reviewer. Grouped on the client as `faults`, `devices` and `sms`.

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
