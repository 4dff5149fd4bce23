// Spain's VeriFactu QR, Orden HAC/1177/2024 and AEAT's "Características del QR y especificaciones del servicio de
// cotejo" (v0.4.7): the URL of AEAT's `ValidarQR` service (`https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/
// ValidarQR`; `ValidarQRNoVerifactu` for systems that do not send records as they go; `prewww2.aeat.es` for tests)
// with `nif` (issuer), `numserie` (series and number, URL-encoded), `fecha` (dd-mm-yyyy) and `importe` (a dot
// decimal, up to 12 integer and 2 decimal digits).
import type { VeriFactu } from "./schema.js"
import { decimal, Problems, paramsOf, parseDate, rawOf } from "./text.js"

/** AEAT's hosts (production and test). */
export const isAeatHost = (host: string): boolean => /(^|\.)(agenciatributaria\.gob\.es|aeat\.es)$/i.test(host)

/** Whether an AEAT URL is the QR verification service (and not another AEAT page). */
export const isVeriFactuPath = (path: string): boolean => /\/ValidarQR(NoVerifactu)?$/i.test(path)

export const decodeVeriFactu = (raw: string, url: URL, format: string | null): VeriFactu => {
  const problems = new Problems()
  const params = paramsOf(url.search)
  const take = (name: string): string | null => {
    const value = params.get(name)?.trim()
    if (value === undefined || value === "") {
      problems.add("missing_member", `no ${name}`, name)
      return null
    }
    return value
  }
  const nif = take("nif")
  if (nif !== null && !/^[A-Z0-9]{9}$/i.test(nif)) problems.add("bad_value", `nif ${nif} is not 9 characters`, "nif")
  const numserie = take("numserie")
  const fecha = take("fecha")
  const issueDate = fecha === null ? null : parseDate(fecha)
  if (fecha !== null && issueDate === null) problems.add("bad_value", `fecha ${fecha} is not a date`, "fecha")
  const importe = take("importe")
  const total = importe === null ? null : decimal(importe)
  if (importe !== null && total === null) problems.add("wrong_type", `importe ${importe} is not a number`, "importe")
  return {
    _tag: "VeriFactu",
    raw: rawOf(raw),
    format,
    problems: problems.list,
    noVerifactu: /NoVerifactu$/i.test(url.pathname),
    issuerTaxId: nif === null ? null : nif.toUpperCase(),
    documentNumber: numserie,
    issueDate,
    total,
    totalText: importe
  }
}
