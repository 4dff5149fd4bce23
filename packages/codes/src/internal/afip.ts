// AFIP/ARCA fiscal QR, Resolución General 4892/2020 and AFIP's "Especificaciones técnicas del código QR"
// (https://www.afip.gob.ar/fe/qr/especificaciones.asp): the URL `https://www.afip.gob.ar/fe/qr/?p=` followed by the
// base64 of a JSON object with `ver` (1), `fecha` (yyyy-mm-dd), `cuit` (11 digits), `ptoVta` (≤ 5 digits),
// `tipoCmp` (≤ 3), `nroCmp` (≤ 8), `importe` (13 integer + 2 decimal digits), `moneda` (3 characters, AFIP's table:
// `PES`, `DOL`, `060`…), `ctz` (exchange rate), optional `tipoDocRec`/`nroDocRec`, `tipoCodAut` (`E` CAE, `A` CAEA)
// and `codAut` (14 digits). ARCA (AFIP's successor, 2024) keeps the format; its host is accepted too.
import type { Afip } from "./schema.js"
import { base64Text, isoDate, type JsonMembers, jsonMembers, Problems, rawOf } from "./text.js"

/** AFIP's hosts: `www.afip.gob.ar`, and ARCA's since the 2024 rename. */
export const isAfipHost = (host: string): boolean => /(^|\.)(afip|arca)\.gob\.ar$/i.test(host)

// AFIP's currency table (`moneda`) for the currencies that carry most invoices; others keep AFIP's code only.
const currencies: Readonly<Record<string, string>> = {
  PES: "ARS",
  DOL: "USD",
  "060": "EUR",
  "012": "BRL",
  "021": "GBP",
  "019": "JPY",
  "011": "UYU",
  "033": "CLP",
  "009": "CHF"
}

// AFIP's voucher types (`tipoCmp`, table of "Tipos de comprobante") most often printed with a QR.
const documentTypes: Readonly<Record<number, string>> = {
  1: "Factura A",
  2: "Nota de Débito A",
  3: "Nota de Crédito A",
  6: "Factura B",
  7: "Nota de Débito B",
  8: "Nota de Crédito B",
  11: "Factura C",
  12: "Nota de Débito C",
  13: "Nota de Crédito C",
  19: "Factura E",
  20: "Nota de Débito E",
  21: "Nota de Crédito E",
  51: "Factura M",
  52: "Nota de Débito M",
  53: "Nota de Crédito M",
  201: "Factura de Crédito Electrónica MiPyMEs A",
  206: "Factura de Crédito Electrónica MiPyMEs B",
  211: "Factura de Crédito Electrónica MiPyMEs C"
}

const required = [
  "ver",
  "fecha",
  "cuit",
  "ptoVta",
  "tipoCmp",
  "nroCmp",
  "importe",
  "moneda",
  "ctz",
  "tipoCodAut",
  "codAut"
]

/** The CUIT check digit (weights 5 4 3 2 7 6 5 4 3 2, mod 11). */
export const cuitIsValid = (digits: string): boolean => {
  if (!/^\d{11}$/.test(digits)) return false
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
  const sum = weights.reduce((total, weight, index) => total + weight * Number(digits[index]), 0)
  const check = 11 - (sum % 11)
  const expected = check === 11 ? 0 : check === 10 ? 9 : check
  return expected === Number(digits[10])
}

export const formatCuit = (digits: string): string => `${digits.slice(0, 2)}-${digits.slice(2, 10)}-${digits.slice(10)}`

/** A member's digits, from a JSON number (its source text, so 14-digit codes keep every digit) or a digit string. */
const digitsOf = (json: JsonMembers, name: string, problems: Problems): string | null => {
  const value = json.values.get(name)
  if (value === undefined || value === null) return null
  const raw = json.raw.get(name)
  if (typeof value === "number" && raw !== undefined && /^\d+$/.test(raw)) return raw
  if (typeof value === "string" && /^\d+$/.test(value.trim())) {
    problems.add("wrong_type", `${name} is a string of digits, not a number`, name)
    return value.trim()
  }
  problems.add("wrong_type", `${name} is not a whole number`, name)
  return null
}

const numberOf = (json: JsonMembers, name: string, problems: Problems): { value: number; text: string } | null => {
  const value = json.values.get(name)
  if (value === undefined || value === null) return null
  if (typeof value === "number" && Number.isFinite(value)) return { value, text: json.raw.get(name) ?? String(value) }
  if (typeof value === "string" && /^-?\d+(?:\.\d+)?$/.test(value.trim())) {
    problems.add("wrong_type", `${name} is a string, not a number`, name)
    return { value: Number(value.trim()), text: value.trim() }
  }
  problems.add("wrong_type", `${name} is not a number`, name)
  return null
}

const stringOf = (json: JsonMembers, name: string, problems: Problems): string | null => {
  const value = json.values.get(name)
  if (value === undefined || value === null) return null
  if (typeof value === "string") return value.trim()
  problems.add("wrong_type", `${name} is not a string`, name)
  return typeof value === "number" ? String(value) : null
}

const empty = (raw: string, format: string | null, problems: Problems): Afip => ({
  _tag: "Afip",
  raw: rawOf(raw),
  format,
  problems: problems.list,
  version: null,
  issueDate: null,
  issuerTaxId: null,
  pointOfSale: null,
  documentType: null,
  documentTypeName: null,
  number: null,
  documentNumber: null,
  total: null,
  totalText: null,
  currency: null,
  currencyCode: null,
  exchangeRate: null,
  buyerDocType: null,
  buyerDocNumber: null,
  authorizationType: null,
  authorizationCode: null,
  cae: null
})

/** Reads an AFIP QR URL (already recognised by its host). */
export const decodeAfip = (raw: string, url: URL, format: string | null): Afip => {
  const problems = new Problems()
  if (!/^\/fe\/qr\/?$/i.test(url.pathname)) problems.add("bad_value", `unexpected path ${url.pathname}`)
  // The base64 is read from the raw query: URLSearchParams would turn a `+` of the alphabet into a space.
  const match = /[?&]p=([^&#]*)/.exec(url.search)
  if (!match) {
    problems.add("missing_member", "no p parameter", "p")
    return empty(raw, format, problems)
  }
  let encoded = match[1] ?? ""
  try {
    encoded = decodeURIComponent(encoded)
  } catch {
    problems.add("bad_encoding", "bad percent-encoding", "p")
  }
  const text = base64Text(encoded, problems, "p")
  const json = text === null ? null : jsonMembers(text, problems)
  if (json === null) return empty(raw, format, problems)
  for (const name of required) if (!json.values.has(name)) problems.add("missing_member", `no ${name}`, name)

  const version = numberOf(json, "ver", problems)
  const fecha = stringOf(json, "fecha", problems)
  const issueDate = fecha === null ? null : parseAfipDate(fecha)
  if (fecha !== null && issueDate === null) problems.add("bad_value", `fecha ${fecha} is not a date`, "fecha")

  const cuit = digitsOf(json, "cuit", problems)
  if (cuit !== null && !cuitIsValid(cuit)) problems.add("bad_value", `cuit ${cuit} fails its check digit`, "cuit")
  const issuerTaxId = cuit !== null && cuit.length === 11 ? formatCuit(cuit) : cuit

  const pointOfSale = digitsOf(json, "ptoVta", problems)
  const number = digitsOf(json, "nroCmp", problems)
  const documentType = numberOf(json, "tipoCmp", problems)
  const total = numberOf(json, "importe", problems)
  const currencyCode = stringOf(json, "moneda", problems)
  const exchangeRate = numberOf(json, "ctz", problems)
  const buyerDocType = numberOf(json, "tipoDocRec", problems)
  const buyerDocNumber = digitsOf(json, "nroDocRec", problems)
  const authorizationType = stringOf(json, "tipoCodAut", problems)
  if (authorizationType !== null && authorizationType !== "E" && authorizationType !== "A")
    problems.add("bad_value", `tipoCodAut ${authorizationType} is neither E nor A`, "tipoCodAut")
  const authorizationCode = digitsOf(json, "codAut", problems)

  return {
    ...empty(raw, format, problems),
    version: version?.value ?? null,
    issueDate,
    issuerTaxId,
    pointOfSale: pointOfSale === null ? null : Number(pointOfSale),
    documentType: documentType?.value ?? null,
    documentTypeName: documentType === null ? null : (documentTypes[documentType.value] ?? null),
    number: number === null ? null : Number(number),
    documentNumber:
      pointOfSale === null || number === null
        ? null
        : `${pointOfSale.replace(/^0+(?=\d)/, "").padStart(4, "0")}-${number.replace(/^0+(?=\d)/, "").padStart(8, "0")}`,
    total: total?.value ?? null,
    totalText: total?.text ?? null,
    currency: currencyCode === null ? null : (currencies[currencyCode.toUpperCase()] ?? null),
    currencyCode,
    exchangeRate: exchangeRate?.value ?? null,
    buyerDocType: buyerDocType?.value ?? null,
    buyerDocNumber,
    authorizationType,
    authorizationCode,
    cae: authorizationType === "E" ? authorizationCode : null
  }
}

const parseAfipDate = (text: string): string | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(text)
  return match ? isoDate(Number(match[1]), Number(match[2]), Number(match[3])) : null
}
