import { decodeAfip, isAfipHost } from "./afip.js"
import { decodeEpc, isEpc } from "./epc.js"
import { decodeSat, isSatHost, isSatQuery } from "./sat.js"
import type { Decoded, Unknown } from "./schema.js"
import { decodeSunat, isSunat } from "./sunat.js"
import { Problems, rawOf, urlOf } from "./text.js"
import { decodeVeriFactu, isAeatHost, isVeriFactuPath } from "./verifactu.js"

const unknown = (raw: string, format: string | null, detail: string): Unknown => {
  const problems = new Problems()
  problems.add("unrecognised", detail)
  return { _tag: "Unknown", raw: rawOf(raw), format, problems: problems.list }
}

/**
 * Recognises a code's payload by its envelope (a URL's host, `BCD`, a RUC and pipes) and reads it. Total: any
 * input gives a result, never an exception; what could not be read is listed in `problems`.
 */
export const decode = (text: string, format?: string): Decoded => {
  const formatOrNull = format ?? null
  try {
    const value = text.replace(/^\uFEFF/, "").trim()
    if (value === "") return unknown(text, formatOrNull, "empty")
    if (isEpc(value)) return decodeEpc(value, formatOrNull)
    const url = urlOf(value)
    if (url !== null) {
      // A tax authority's other pages (a home page, a help page) are not codes: the QR's path or parameters are.
      if (isAfipHost(url.hostname) && (/^\/fe\/qr\/?$/i.test(url.pathname) || /[?&]p=/.test(url.search)))
        return decodeAfip(value, url, formatOrNull)
      if (isAeatHost(url.hostname) && isVeriFactuPath(url.pathname)) return decodeVeriFactu(value, url, formatOrNull)
      if (isSatHost(url.hostname) && /[?&](id|re)=/i.test(url.search)) return decodeSat(value, url.search, formatOrNull)
      return unknown(value, formatOrNull, `a URL of ${url.hostname}, not a fiscal code's`)
    }
    if (isSatQuery(value)) return decodeSat(value, value, formatOrNull)
    if (isSunat(value)) return decodeSunat(value, formatOrNull)
    return unknown(value, formatOrNull, "not a payload of a known kind")
  } catch (error) {
    // Every reader above is written not to throw; this keeps the promise should one of them still do.
    return unknown(text, formatOrNull, `reader failure: ${error instanceof Error ? error.message : String(error)}`)
  }
}
