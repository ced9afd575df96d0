import { JiguangSandboxContainer } from '../../client/src/testcontainers.js'
import { httpCaller, httpsCaller, sendAndValidateCode } from './sms-flow.js'

/**
 * The Testcontainers module (jiguang-sandbox-client/testcontainers) against the image just built,
 * as a test suite uses it: one call starts it and waits until it is ready; then the URL, the
 * vendors' base URLs, the default app's client, an app of the test's own, and the TLS listener.
 */
export async function testcontainersChecks(image: string): Promise<Array<[boolean, string]>> {
  const checks: Array<[boolean, string]> = []
  const sandbox = await new JiguangSandboxContainer(image).withTls().start()
  try {
    const ready = await fetch(`${sandbox.url}/_sandbox/ready`)
    checks.push([ready.status === 200, `start() resolves once ready (${sandbox.url})`])

    // The vendor's own request, to the base URL a JSMS client is given.
    const msgId = await sendAndValidateCode(httpCaller(sandbox.baseUrls.sms), '13800138000')
    const code = await sandbox.client.latestCode('13800138000')
    checks.push([
      code.msg_id === msgId && code.verified,
      "a code sent to baseUrls.sms, seen by the default app's client",
    ])

    const own = await sandbox.createApp({ prefix: 'tc' })
    const sent = await fetch(`${sandbox.baseUrls.push}/v3/push`, {
      method: 'POST',
      headers: { authorization: own.authorization },
      body: JSON.stringify({ platform: 'all', audience: 'all', notification: { alert: 'hi' } }),
    })
    const { msg_id } = (await sent.json()) as { msg_id: string }
    // One delivery per device of the app's default fixtures.
    const delivered = (await own.pushes()).messages
    const others = (await sandbox.client.pushes()).messages
    checks.push([
      delivered.length > 0 && delivered.every(d => d.msg_id === msg_id) && others.length === 0,
      `createApp(): an app of its own, whose push (${delivered.length} deliveries) the default app does not see`,
    ])

    // The container's operator is not operator:operator: the module started it with a password.
    const listed = await sandbox.operator.apps({ prefix: own.appKey })
    checks.push([
      listed.apps.map(a => a.app_key).join() === own.appKey,
      'operator: the container started with a password of its own lists the apps',
    ])

    const ca = await sandbox.caCertificate()
    await sendAndValidateCode(httpsCaller('api.sms.jpush.cn', sandbox.getTlsPort(), ca), '13800138001')
    checks.push([true, 'withTls(): https://api.sms.jpush.cn through getTlsPort(), trusting caCertificate()'])
  } finally {
    await sandbox.stop()
  }
  return checks
}
