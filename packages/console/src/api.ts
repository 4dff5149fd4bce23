/**
 * The console's only way out: the public HTTP API of the server that serves it, with the key in the `x-api-key`
 * header (never in a URL). A 401 is `Rejected`, which sends the person back to the sign-in.
 */

/** The key was refused (revoked, wrong): sign in again. */
export class Rejected extends Error {}

/** Any other refusal, with the server's `{error}` message. */
export class Failed extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

const messageOf = async (response: Response): Promise<string> => {
  try {
    const body: unknown = await response.json()
    if (typeof body === "object" && body !== null && "error" in body && typeof body.error === "string")
      return body.error
  } catch {
    // not JSON: the status says enough
  }
  return `HTTP ${response.status}`
}

/** A request with the key; resolves with the response when it is 2xx or 304. */
export const call = async (key: string, path: string, init: RequestInit = {}): Promise<Response> => {
  const headers = new Headers(init.headers)
  headers.set("x-api-key", key)
  const response = await fetch(path, { ...init, headers, credentials: "omit", referrerPolicy: "no-referrer" })
  if (response.status === 401) throw new Rejected(await messageOf(response))
  if (!response.ok) throw new Failed(response.status, await messageOf(response))
  return response
}

/** A JSON request with the key. */
export const json = async <A>(key: string, path: string, init: RequestInit = {}): Promise<A> =>
  (await (await call(key, path, init)).json()) as A
