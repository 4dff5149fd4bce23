/**
 * The `WebhookTransport` port over Node's `http`/`https`: SSRF checks at registration and at every delivery, the
 * connection pinned to the address that was checked (a DNS answer that changes between the check and the connect
 * cannot swap in a private address), no redirects followed, a whole-attempt timeout and a capped response read.
 * Address ranges are classified by `ipaddr.js`: only its `unicast` range (public addresses) is reachable unless
 * `allowPrivate` is set.
 */
import * as Dns from "node:dns"
import * as NodeHttp from "node:http"
import * as NodeHttps from "node:https"
import type { LookupFunction } from "node:net"
import { Errors, Webhook } from "@legible/core"
import { Effect, Layer, Schema } from "effect"
import ipaddr from "ipaddr.js"

/** The settings of the transport. */
export interface Options {
  /** Reach loopback, private, link-local, unique-local and metadata addresses too (tests, local development). */
  readonly allowPrivate?: boolean | undefined
  /** Accept `http://` URLs as well as `https://` (development). */
  readonly allowHttp?: boolean | undefined
  /** The longest one attempt may take, connection included. Default 15 s. */
  readonly timeoutMs?: number | undefined
  /** The most response bytes read (the rest is discarded). Default 4 KiB. */
  readonly maxResponseBytes?: number | undefined
}

interface Settings {
  readonly allowPrivate: boolean
  readonly allowHttp: boolean
  readonly timeoutMs: number
  readonly maxResponseBytes: number
}

/** The default timeout of one attempt. */
export const DEFAULT_TIMEOUT_MS = 15_000
/** The default cap of a response read. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4_096
/** Attempt timeouts accepted: 1 to 60 seconds. */
export const TimeoutSeconds = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60 }))

const USER_AGENT = "legible-webhooks/1 (+https://www.standardwebhooks.com)"

/** The range `ipaddr.js` gives an address (IPv4-mapped IPv6 classified as the IPv4 it carries), or `invalid`. */
export const rangeOf = (address: string): string => {
  if (!ipaddr.isValid(address)) return "invalid"
  return ipaddr.process(address).range()
}

/** Whether an address is public: `unicast`, the one range a webhook may reach without `allowPrivate`. */
export const isPublic = (address: string): boolean => rangeOf(address) === "unicast"

const bare = (hostname: string) => (hostname.startsWith("[") ? hostname.slice(1, -1) : hostname)

interface Resolved {
  readonly address: string
  readonly family: 4 | 6
}

const resolve = async (hostname: string): Promise<ReadonlyArray<Resolved>> => {
  const host = bare(hostname)
  if (ipaddr.isValid(host)) return [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }]
  const found = await Dns.promises.lookup(host, { all: true, verbatim: true })
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/** Why a URL may not be used, or the address to connect to. */
type Checked =
  | { readonly ok: true; readonly url: URL; readonly to: Resolved }
  | { readonly ok: false; readonly why: string }

const checkUrl = async (raw: string, options: Settings): Promise<Checked> => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, why: "url must be an absolute http(s) URL" }
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && options.allowHttp === true)) {
    return { ok: false, why: options.allowHttp === true ? "url must use https or http" : "url must use https" }
  }
  if (url.username !== "" || url.password !== "") return { ok: false, why: "url must not carry credentials" }
  let addresses: ReadonlyArray<Resolved>
  let timer: NodeJS.Timeout | undefined
  try {
    // A resolver that never answers must not hold a registration or an attempt past the timeout.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), options.timeoutMs)
    })
    addresses = await Promise.race([resolve(url.hostname), late])
  } catch {
    return { ok: false, why: "url's host does not resolve" }
  } finally {
    clearTimeout(timer)
  }
  if (addresses.length === 0) return { ok: false, why: "url's host does not resolve" }
  if (options.allowPrivate !== true) {
    const blocked = addresses.find((a) => !isPublic(a.address))
    if (blocked !== undefined) {
      return {
        ok: false,
        why: `url's host resolves to a ${rangeOf(blocked.address)} address; webhooks reach only public addresses`
      }
    }
  }
  return { ok: true, url, to: addresses[0]! }
}

// Node's connect asks with `all: true` (address family auto-selection) or without: both get the checked address.
const pinned =
  (to: Resolved): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all === true) {
      ;(callback as (error: null, addresses: Array<Dns.LookupAddress>) => void)(null, [
        { address: to.address, family: to.family }
      ])
    } else callback(null, to.address, to.family)
  }

/** Seconds (`120`) or an HTTP date; undefined when absent or unreadable. */
export const parseRetryAfter = (value: string | undefined, nowMs: number): number | undefined => {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}

const describe = (error: unknown): string => {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return `connection failed (${error.code})`
  }
  return error instanceof Error ? error.message : "connection failed"
}

const post = (checked: { url: URL; to: Resolved }, request: Webhook.Request, options: Settings, signal: AbortSignal) =>
  new Promise<Webhook.Response>((done) => {
    const module = checked.url.protocol === "https:" ? NodeHttps : NodeHttp
    let settled = false
    const finish = (response: Webhook.Response) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      req.destroy()
      done(response)
    }
    const req = module.request(
      checked.url,
      {
        method: "POST",
        headers: { ...request.headers, "user-agent": USER_AGENT, "content-length": Buffer.byteLength(request.body) },
        lookup: pinned(checked.to),
        agent: false
      },
      (res) => {
        const status = res.statusCode ?? 0
        const retryAfterMs = parseRetryAfter(res.headers["retry-after"], Date.now())
        let read = 0
        const answered = () => finish({ _tag: "Answered", status, retryAfterMs })
        res.on("data", (chunk: Buffer) => {
          read += chunk.length
          if (read >= options.maxResponseBytes) answered()
        })
        res.on("end", answered)
        res.on("error", answered)
      }
    )
    const timer = setTimeout(
      () => finish({ _tag: "NoAnswer", error: `no answer within ${Math.round(options.timeoutMs / 1000)} s` }),
      options.timeoutMs
    )
    signal.addEventListener("abort", () => finish({ _tag: "NoAnswer", error: "interrupted" }))
    req.on("error", (error) => finish({ _tag: "NoAnswer", error: describe(error) }))
    req.end(request.body)
  })

/** Builds the transport. */
export const make = (given: Options = {}): Webhook.WebhookTransport["Service"] => {
  const options: Settings = {
    allowPrivate: given.allowPrivate ?? false,
    allowHttp: given.allowHttp ?? false,
    timeoutMs: given.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: given.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  }
  return Webhook.WebhookTransport.of({
    check: (url) =>
      Effect.promise(() => checkUrl(url, options)).pipe(
        Effect.flatMap((checked) =>
          checked.ok ? Effect.void : Effect.fail(new Errors.InvalidRequest({ message: checked.why }))
        ),
        Effect.withSpan("WebhookSender.check")
      ),
    // Checked again at every attempt: DNS may have changed since the registration.
    send: (request) =>
      Effect.promise(async (signal) => {
        const checked = await checkUrl(request.url, options)
        if (!checked.ok) return { _tag: "NoAnswer", error: `refused: ${checked.why}` } as const
        return post(checked, request, options, signal)
      }).pipe(Effect.withSpan("WebhookSender.send"))
  })
}

/** Provides the `WebhookTransport`. */
export const layer = (options: Options = {}): Layer.Layer<Webhook.WebhookTransport> =>
  Layer.succeed(Webhook.WebhookTransport, make(options))
