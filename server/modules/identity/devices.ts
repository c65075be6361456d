import { createHmac, timingSafeEqual } from 'node:crypto'
import { randomToken } from './tokens.ts'

// A remembered device (decision 091): after a password sign-in the browser or app keeps a token that
// names the account and a random id for the device, signed with the login secret. Presented with
// the next sign-in to the same account, it moves that attempt from the address's limit (which
// anyone can exhaust by guessing) to the device's own, so an attacker cannot lock the owner out of
// the devices they already use. Nothing is stored: the signature is the proof.

export const REMEMBERED_DEVICE_DAYS = 180
const VERSION = 'd1'

export interface RememberedDevice {
  userId: number
  deviceId: string
}

// A key of its own, so a device token can never pass for a login token or the other way round.
const deviceKey = (secret: string) =>
  createHmac('sha256', secret).update('workneer remembered device').digest()
const sign = (secret: string, body: string) =>
  createHmac('sha256', deviceKey(secret)).update(body).digest('base64url')

/** A token for `userId` on this device: the same device id when the device had one, else a new one. */
export function rememberDevice(secret: string, userId: number, deviceId = randomToken(16), now = Date.now()) {
  const expires = Math.floor(now / 1000) + REMEMBERED_DEVICE_DAYS * 86_400
  const body = `${VERSION}.${userId}.${deviceId}.${expires}`
  return `${body}.${sign(secret, body)}`
}

/** The device a token names, if it is well formed, correctly signed, unexpired and for `userId`; else null. */
export function recognizeDevice(
  secret: string,
  token: string | null | undefined,
  userId: number,
  now = Date.now(),
): RememberedDevice | null {
  if (!token || token.length > 200) return null
  const parts = token.split('.')
  if (parts.length !== 5 || parts[0] !== VERSION) return null
  const [, user, deviceId, expires, signature] = parts
  const expected = Buffer.from(sign(secret, parts.slice(0, 4).join('.')))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  if (Number(user) !== userId || !/^[\w-]{16,64}$/.test(deviceId) || !(Number(expires) > now / 1000))
    return null
  return { userId, deviceId }
}
