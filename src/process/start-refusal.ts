import { StartRefusal } from '../errors.js'

/**
 * Why `listen` failed, for the errors an operator causes; anything else is kept as is. `setting`:
 * the port's setting (PORT, TLS_PORT for the HTTPS listener, METRICS_PORT, refused alike).
 */
export function listenFailure(err: unknown, port: number, host: string, setting = 'PORT'): unknown {
  const code = (err as { code?: unknown }).code
  const where = `${host}:${port}`
  if (code === 'EADDRINUSE')
    return new StartRefusal(
      `${setting} ${port} is already in use on ${host}: stop what listens there, or choose another ${setting}`,
    )
  if (code === 'EACCES')
    return new StartRefusal(
      `this user may not listen on ${where} (EACCES): ports below 1024 need root or CAP_NET_BIND_SERVICE; choose ${setting} 1024 or above`,
    )
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new StartRefusal(
      `HOST ${host} is not an address of this machine (${code}): use 0.0.0.0, 127.0.0.1 or one of its own`,
    )
  return err
}
