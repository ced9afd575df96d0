// An application inside the compose network: it knows nothing of the sandbox but the CA it trusts.
const auth = `Basic ${Buffer.from('7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1').toString('base64')}`
const call = async (method, url, body) => {
  const res = await fetch(url, {
    method,
    headers: { authorization: auth },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}

const mobile = '13900139000'
const sent = await call('POST', 'https://api.sms.jpush.cn/v1/codes', { mobile, temp_id: 1 })
const latest = await call('GET', `https://api.sms.jpush.cn/_sandbox/sms/codes/latest?mobile=${mobile}`)
const valid = await call('POST', `https://api.sms.jpush.cn/v1/codes/${sent.body.msg_id}/valid`, {
  code: latest.body.code,
})
const hosts = [
  'api.jpush.cn',
  'device.jpush.cn',
  'report.jpush.cn',
  'bjapi.push.jiguang.cn',
  'admin.jpush.cn',
  'sandbox',
]
const health = await Promise.all(hosts.map(h => fetch(`https://${h}/_sandbox/health`).then(r => r.status)))
console.log(JSON.stringify({ sent, valid, health }))
process.exit(valid.body.is_valid === true && health.every(s => s === 200) ? 0 : 1)
