// Mexico's CFDI 3.3 / 4.0 XML (SAT Anexo 20): `cfdi:Comprobante` with its data in attributes — `Serie`, `Folio`,
// `Fecha`, `SubTotal`, `Total`, `Moneda`, `Version`; `cfdi:Emisor`/`cfdi:Receptor` `Rfc` and `Nombre`;
// `cfdi:Conceptos/cfdi:Concepto` `Descripcion`, `Cantidad`, `ClaveUnidad`, `ValorUnitario`, `Importe`;
// `cfdi:Impuestos` `TotalImpuestosTrasladados` and its `Traslado`s; the stamp's `tfd:TimbreFiscalDigital` `UUID`.
import { emptyTotals, party, problemsOf } from "./invoice.js"
import type { Invoice, Line, Tax } from "./schema.js"
import { decimal, type Problems, parseDate } from "./text.js"
import { at, childrenNamed, type Element } from "./xml.js"

export const CFDI_NAMESPACES = ["http://www.sat.gob.mx/cfd/3", "http://www.sat.gob.mx/cfd/4"]

const attribute = (element: Element | undefined, name: string): string | null =>
  element?.attributes.get(name)?.trim() || null

const amount = (element: Element | undefined, name: string, problems: Problems): number | null => {
  const text = attribute(element, name)
  if (text === null) return null
  const value = decimal(text)
  if (value === null) problems.add("wrong_type", `${name} ${text} is not a number`, name)
  return value
}

const cfdiParty = (element: Element | undefined) => {
  const rfc = attribute(element, "Rfc")
  return party(attribute(element, "Nombre"), rfc ? [{ scheme: "RFC", value: rfc }] : [])
}

export const readCfdiXml = (root: Element, problems: Problems): Invoice => {
  const taxes: Array<Tax> = childrenNamed(at(root, "Impuestos", "Traslados"), "Traslado").map((transfer) => {
    const rate = amount(transfer, "TasaOCuota", problems)
    return {
      category: attribute(transfer, "Impuesto"),
      rate: rate === null ? null : Math.round(rate * 1_000_000) / 10_000,
      basis: amount(transfer, "Base", problems),
      amount: amount(transfer, "Importe", problems)
    }
  })
  const lines: Array<Line> = childrenNamed(at(root, "Conceptos"), "Concepto").map((concept) => ({
    id: attribute(concept, "NoIdentificacion"),
    name: attribute(concept, "Descripcion"),
    quantity: amount(concept, "Cantidad", problems),
    unitCode: attribute(concept, "ClaveUnidad"),
    unitPrice: amount(concept, "ValorUnitario", problems),
    lineTotal: amount(concept, "Importe", problems),
    taxRate: null
  }))
  const stamp = at(root, "Complemento", "TimbreFiscalDigital")
  const series = attribute(root, "Serie")
  const folio = attribute(root, "Folio")
  const fecha = attribute(root, "Fecha")
  const issueDate = fecha === null ? null : parseDate(fecha)
  if (fecha !== null && issueDate === null) problems.add("bad_value", `Fecha ${fecha} is not a date`, "Fecha")
  const uuid = attribute(stamp, "UUID")?.toUpperCase() ?? null
  const subtotal = amount(root, "SubTotal", problems)
  const taxTotal = amount(at(root, "Impuestos"), "TotalImpuestosTrasladados", problems)
  const total = amount(root, "Total", problems)
  if (total === null) problems.add("missing_member", "no Total", "Total")
  // Problems are gathered last: reading the fields below adds them.
  const read: Omit<Invoice, "problems"> = {
    _tag: "Invoice",
    syntax: "CFDI",
    profile: attribute(root, "Version"),
    // The printed number is series and folio; the fiscal folio (UUID) identifies the CFDI where they are absent.
    documentNumber: folio !== null ? `${series ?? ""}${folio}` : uuid,
    documentType: attribute(root, "TipoDeComprobante"),
    issueDate,
    dueDate: null,
    currency: attribute(root, "Moneda"),
    seller: cfdiParty(at(root, "Emisor")),
    buyer: cfdiParty(at(root, "Receptor")),
    totals: {
      ...emptyTotals,
      lineTotal: subtotal,
      taxBasis: subtotal,
      tax: taxTotal,
      grandTotal: total,
      duePayable: total
    },
    taxes,
    lines,
    iban: null
  }
  return { ...read, problems: problemsOf(problems) }
}
