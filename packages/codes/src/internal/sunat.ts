// Peru's SUNAT QR, Resolución de Superintendencia 097-2012/SUNAT, anexo 5 (as amended by RS 155-2017): the printed
// representation's code holds, separated by `|`: issuer RUC | document type (catálogo 01) | series | number |
// IGV total | document total | issue date | buyer's document type (catálogo 06) | buyer's document number | digest
// value | signature value |. The date is written yyyy-mm-dd (dd/mm/yyyy by some issuers); amounts with a dot.
import type { Sunat } from "./schema.js"
import { decimal, Problems, parseDate, rawOf } from "./text.js"

const documentTypes: Readonly<Record<string, string>> = {
  "01": "Factura",
  "03": "Boleta de venta",
  "07": "Nota de crédito",
  "08": "Nota de débito",
  "09": "Guía de remisión remitente",
  "12": "Ticket de máquina registradora",
  "14": "Recibo de servicios públicos",
  "20": "Comprobante de retención",
  "40": "Comprobante de percepción"
}

/** A RUC: 11 digits whose first two say the kind of taxpayer (10, 15, 16, 17, 20). */
const rucPattern = /^(10|15|16|17|20)\d{9}$/

/** Whether a text looks like a SUNAT code: a RUC, a two-digit type and at least four more pipe-separated fields. */
export const isSunat = (text: string): boolean => {
  const fields = text.split("|")
  return fields.length >= 6 && rucPattern.test(fields[0]?.trim() ?? "") && /^\d{2}$/.test(fields[1]?.trim() ?? "")
}

/** The RUC check digit (weights 5 4 3 2 7 6 5 4 3 2, 11 − sum mod 11, keeping the last digit). */
export const rucIsValid = (ruc: string): boolean => {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
  const sum = weights.reduce((total, weight, index) => total + weight * Number(ruc[index]), 0)
  return (11 - (sum % 11)) % 10 === Number(ruc[10])
}

export const decodeSunat = (raw: string, format: string | null): Sunat => {
  const problems = new Problems()
  const fields = raw.split("|").map((field) => field.trim())
  const names = [
    "ruc",
    "tipo",
    "serie",
    "numero",
    "igv",
    "total",
    "fecha",
    "tipoDocAdq",
    "numDocAdq",
    "digest",
    "firma"
  ]
  const at = (index: number, needed: boolean): string | null => {
    const value = fields[index]
    if (value === undefined || value === "") {
      if (needed) problems.add("missing_member", `no ${names[index]}`, names[index] ?? null)
      return null
    }
    return value
  }
  const ruc = at(0, true)
  if (ruc !== null && !rucIsValid(ruc)) problems.add("bad_value", `ruc ${ruc} fails its check digit`, "ruc")
  const documentType = at(1, true)
  const series = at(2, true)
  if (series !== null && !/^[A-Z0-9]{4}$/i.test(series)) problems.add("bad_value", `serie ${series}`, "serie")
  const number = at(3, true)
  if (number !== null && !/^\d{1,8}$/.test(number)) problems.add("bad_value", `numero ${number}`, "numero")
  const amount = (index: number, needed: boolean): { value: number | null; text: string | null } => {
    const text = at(index, needed)
    const value = text === null ? null : decimal(text)
    if (text !== null && value === null) problems.add("wrong_type", `${names[index]} ${text}`, names[index] ?? null)
    return { value, text }
  }
  const tax = amount(4, false)
  const total = amount(5, true)
  const fecha = at(6, true)
  const issueDate = fecha === null ? null : parseDate(fecha)
  if (fecha !== null && issueDate === null) problems.add("bad_value", `fecha ${fecha} is not a date`, "fecha")
  return {
    _tag: "Sunat",
    raw: rawOf(raw),
    format,
    problems: problems.list,
    issuerTaxId: ruc,
    documentType,
    documentTypeName: documentType === null ? null : (documentTypes[documentType] ?? null),
    series: series?.toUpperCase() ?? null,
    number,
    documentNumber: series === null || number === null ? null : `${series.toUpperCase()}-${number}`,
    tax: tax.value,
    taxText: tax.text,
    total: total.value,
    totalText: total.text,
    issueDate,
    buyerDocType: at(7, false),
    buyerDocNumber: at(8, false),
    digest: at(9, false),
    signature: at(10, false)
  }
}
