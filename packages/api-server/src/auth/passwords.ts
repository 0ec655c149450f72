import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import pLimit from 'p-limit'

/**
 * Password hashing with scrypt from node:crypto (decision 1502): memory-hard,
 * in Node itself (no native addon to build), at OWASP's Password Storage Cheat
 * Sheet parameters for scrypt: N=2^17, r=8, p=1, which needs 128 MiB per hash.
 * The parameters are stored with each hash, so raising them later leaves
 * existing passwords verifiable (and `needsRehash` says when to re-hash one at
 * its next sign-in).
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const
const KEY_LENGTH = 32
const SALT_LENGTH = 16

export interface ScryptParams {
  N: number
  r: number
  p: number
}

/** `$scrypt$ln=17,r=8,p=1$<salt base64>$<key base64>` */
export async function hashPassword(password: string, params: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH)
  const key = await _scrypt(password, salt, params)
  return `$scrypt$ln=${Math.log2(params.N)},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`
}

/** Whether `password` matches `stored`; false for a hash in a form this server does not know. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = _parse(stored)
  if (!parsed) return false
  const key = await _scrypt(password, parsed.salt, parsed.params)
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key)
}

/** Whether a stored hash was made with weaker parameters than today's. */
export function needsRehash(stored: string, params: ScryptParams = SCRYPT_PARAMS): boolean {
  const parsed = _parse(stored)
  return !parsed || parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p
}

/**
 * A hash of a random password, made once: verifying against it when the user
 * name is unknown takes as long as for a known one, so the answer's time does
 * not tell which names exist.
 */
let _decoy: Promise<string> | undefined
export function decoyHash(): Promise<string> {
  return (_decoy ??= hashPassword(randomBytes(16).toString('hex')))
}

/**
 * At most two hashes at once: each takes 128 MiB and a thread of libuv's pool
 * (four by default), which the server's file work shares. A burst of sign-ins
 * waits its turn instead of taking the pool and a gigabyte.
 */
const _hashing = pLimit(2)

function _scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // maxmem must exceed 128·N·r; twice that leaves room for Node's own bookkeeping.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r }
  return _hashing(() => new Promise<Buffer>((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)))))
}

function _parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored)
  if (!match) return null
  return { params: { N: 2 ** Number(match[1]), r: Number(match[2]), p: Number(match[3]) }, salt: Buffer.from(match[4]!, 'base64'), key: Buffer.from(match[5]!, 'base64') }
}
