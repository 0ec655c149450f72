import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { OutboundRefusedError, createOutboundGuard, type ResolvedAddress, type Resolve } from './outbound-policy'

const HINT = 'an admin can change the outbound policy in Settings'
const v4 = (address: string): ResolvedAddress => ({ address, family: 4 })
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 })
/** A resolver from a table: names not in it do not resolve. */
const table =
  (entries: Record<string, ResolvedAddress[]>): Resolve =>
  async (host) => {
    const found = entries[host]
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return found
  }
const defaults = { blockMetadata: true, allowedHosts: [] }

describe('outbound policy: link-local and cloud metadata', () => {
  const guard = createOutboundGuard(defaults, table({ 'metadata.example': [v4('93.184.216.34'), v4('169.254.169.254')], 'aws.example': [v6('fd00:ec2::254')], 'ok.example': [v4('93.184.216.34')] }))

  it('refuses the metadata and link-local literals, naming the address and the rule', async () => {
    await expect(guard.check('http://169.254.169.254/latest/meta-data')).rejects.toThrow(new OutboundRefusedError(`169.254.169.254 is a link-local/cloud metadata address; ${HINT}`))
    for (const url of ['http://169.254.0.1/', 'http://[fe80::1]/', 'http://[febf::1]/', 'http://[fd00:ec2::254]/', 'http://[::ffff:169.254.169.254]/']) {
      await expect(guard.check(url), url).rejects.toBeInstanceOf(OutboundRefusedError)
    }
  })

  it('refuses a name when any address it resolves to is blocked', async () => {
    await expect(guard.check('https://metadata.example/hook')).rejects.toThrow(`metadata.example resolves to 169.254.169.254, which is a link-local/cloud metadata address; ${HINT}`)
    await expect(guard.check('https://AWS.example./hook')).rejects.toThrow(/aws\.example resolves to fd00:ec2::254/)
  })

  it('lets every other address through, with the addresses it resolved', async () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://10.1.2.3/', 'http://[::1]/', 'http://[fd00:ec2::253]/', 'http://169.253.255.255/', 'http://[fec0::1]/']) {
      await expect(guard.check(url), url).resolves.toHaveLength(1)
    }
    await expect(guard.check('http://ok.example/')).resolves.toEqual([v4('93.184.216.34')])
  })

  it('resolves with node:dns by default', async () => {
    const found = await createOutboundGuard(defaults).check('http://localhost:9/')
    expect(found.map((a) => a.address)).toContain('127.0.0.1')
  })

  it('a name that does not resolve is no refusal: the resolver’s error', async () => {
    const error = await guard.check('http://nowhere.example/').catch((e: Error) => e)
    expect(error).not.toBeInstanceOf(OutboundRefusedError)
    expect((error as Error).message).toMatch(/ENOTFOUND/)
  })

  it('with blockMetadata off, metadata addresses are reachable', async () => {
    await expect(createOutboundGuard({ blockMetadata: false, allowedHosts: [] }).check('http://169.254.169.254/')).resolves.toEqual([v4('169.254.169.254')])
  })
})

describe('outbound policy: allowed hosts', () => {
  const resolve = table({
    'hooks.example.com': [v4('93.184.216.34')],
    'a.b.example.com': [v4('93.184.216.35')],
    'example.com': [v4('93.184.216.36')],
    'evilexample.com': [v4('93.184.216.37')],
    'internal.corp': [v4('10.20.30.40')],
    'dual.corp': [v6('::1'), v4('127.0.0.1')],
    'v6.corp': [v6('fd12::7')],
    'meta.example.com': [v4('169.254.169.254')],
  })
  const guard = createOutboundGuard({ blockMetadata: true, allowedHosts: ['Hooks.Example.com', '*.example.com', '10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'not/a-network', '10.0.0.0/99'] }, resolve)
  const refused = (host: string) => `${host} is not among the allowed hosts of the outbound policy; ${HINT}`

  it('lets a host through by its exact name or as a subdomain of a `*.` entry', async () => {
    await expect(guard.check('https://hooks.example.com/x')).resolves.toEqual([v4('93.184.216.34')])
    await expect(guard.check('https://a.b.example.com/x')).resolves.toEqual([v4('93.184.216.35')])
  })

  it('`*.example.com` covers neither example.com itself nor a name that merely ends the same', async () => {
    await expect(guard.check('https://example.com/')).rejects.toThrow(refused('example.com'))
    await expect(guard.check('https://evilexample.com/')).rejects.toThrow(refused('evilexample.com'))
  })

  it('matches address and CIDR entries against the addresses a name resolves to, and literals', async () => {
    await expect(guard.check('http://internal.corp/')).resolves.toEqual([v4('10.20.30.40')])
    await expect(guard.check('http://v6.corp/')).resolves.toEqual([v6('fd12::7')])
    await expect(guard.check('http://10.255.0.1/')).resolves.toEqual([v4('10.255.0.1')])
    await expect(guard.check('http://11.0.0.1/')).rejects.toThrow(refused('11.0.0.1'))
    await expect(guard.check('http://[::1]/')).rejects.toThrow(refused('::1'))
  })

  it('a name allowed by address is reached only at its allowed addresses', async () => {
    await expect(guard.check('http://dual.corp/')).resolves.toEqual([v4('127.0.0.1')])
  })

  it('an allowed name is still refused when it resolves to a metadata address', async () => {
    await expect(guard.check('http://meta.example.com/')).rejects.toThrow(/meta\.example\.com resolves to 169\.254\.169\.254, which is a link-local\/cloud metadata address/)
  })
})

describe('outbound policy: the connection goes to the checked address', () => {
  const listen = async () => {
    const received: string[] = []
    const server = http.createServer((req, res) => {
      received.push(req.url ?? '')
      res.end('ok')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    return { received, port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(r)) }
  }
  const get = (url: string, lookup: ReturnType<typeof createOutboundGuard>['lookup'], autoSelectFamily: boolean) =>
    new Promise<number>((resolve, reject) => {
      // autoSelectFamily is a node:net option these typings leave out of the request options.
      const req = http.get(url, { lookup, agent: false, autoSelectFamily } as http.RequestOptions, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
    })

  it('node:http connects where the guard’s lookup says, asked once per connection', async () => {
    const server = await listen()
    let asked = 0
    const guard = createOutboundGuard(defaults, async (host) => {
      asked++
      return host === 'receiver.example' ? [v4('127.0.0.1')] : []
    })
    try {
      // Both ways node:net asks: every address (autoSelectFamily), or one.
      expect(await get(`http://receiver.example:${server.port}/a`, guard.lookup, true)).toBe(200)
      expect(await get(`http://receiver.example:${server.port}/b`, guard.lookup, false)).toBe(200)
      expect(server.received).toEqual(['/a', '/b'])
      expect(asked).toBe(2)
    } finally {
      await server.close()
    }
  })

  it('a refused name fails the request with the refusal, and nothing arrives', async () => {
    const server = await listen()
    const guard = createOutboundGuard({ blockMetadata: true, allowedHosts: ['10.0.0.0/8'] }, async () => [v4('127.0.0.1')])
    try {
      const error = await get(`http://receiver.example:${server.port}/a`, guard.lookup, true).catch((e: Error) => e)
      expect(error).toBeInstanceOf(OutboundRefusedError)
      expect((error as Error).message).toBe(`receiver.example is not among the allowed hosts of the outbound policy; ${HINT}`)
      expect(server.received).toEqual([])
    } finally {
      await server.close()
    }
  })
})
