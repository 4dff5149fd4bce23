// Mexico's CFDI QR, SAT's Anexo 20 (CFDI 3.3 and 4.0, "Estándar de la representación impresa"): the URL
// `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=<UUID>&re=<issuer RFC>&rr=<buyer RFC>&tt=<total>
// &fe=<last 8 characters of the seal>`; CFDI 3.2 printed the bare query `?re=…&rr=…&tt=0000001234.567800&id=…`
// (total as 10 integer and 6 decimal digits, zero-padded).
import type { Cfdi } from "./schema.js"
import { decimal, Problems, paramsOf, rawOf } from "./text.js"

export const isSatHost = (host: string): boolean => /(^|\.)sat\.gob\.mx$/i.test(host)

/** The bare query of CFDI 3.2's QR. */
export const isSatQuery = (text: string): boolean => /^\?(?=.*\bre=)(?=.*\brr=)(?=.*\btt=)/i.test(text)

const rfcPattern = /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/
const uuidPattern = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/

export const decodeSat = (raw: string, search: string, format: string | null): Cfdi => {
  const problems = new Problems()
  const params = paramsOf(search)
  const take = (name: string): string | null => {
    const value = params.get(name)?.trim()
    if (value === undefined || value === "") {
      problems.add("missing_member", `no ${name}`, name)
      return null
    }
    return value
  }
  const rfc = (name: string): string | null => {
    const value = take(name)?.toUpperCase() ?? null
    if (value !== null && !rfcPattern.test(value)) problems.add("bad_value", `${name} ${value} is not an RFC`, name)
    return value
  }
  const uuid = take("id")?.toUpperCase() ?? null
  if (uuid !== null && !uuidPattern.test(uuid)) problems.add("bad_value", `id ${uuid} is not a UUID`, "id")
  const issuerTaxId = rfc("re")
  const buyerTaxId = rfc("rr")
  const tt = take("tt")
  const total = tt === null ? null : decimal(tt)
  if (tt !== null && total === null) problems.add("wrong_type", `tt ${tt} is not a number`, "tt")
  return {
    _tag: "Cfdi",
    raw: rawOf(raw),
    format,
    problems: problems.list,
    uuid,
    issuerTaxId,
    buyerTaxId,
    total,
    totalText: tt,
    sealTail: params.get("fe")?.trim() || null
  }
}
