import { CFDI_NAMESPACES, readCfdiXml } from "./cfdiXml.js"
import { CII_NAMESPACE, readCii } from "./cii.js"
import { type InvoiceRead, RAW_LIMIT, type Unknown } from "./schema.js"
import { Problems, rawOf } from "./text.js"
import { readUbl, UBL_NAMESPACES } from "./ubl.js"
import { defaultLimits, parseXml, textOf, type XmlLimits } from "./xml.js"

const refused = (raw: string, problems: Problems): Unknown => ({
  _tag: "Unknown",
  raw: rawOf(raw),
  format: "xml",
  problems: problems.list
})

/**
 * Reads an e-invoice's XML — CII (Factur-X, ZUGFeRD, XRechnung CII), UBL `Invoice`/`CreditNote` (XRechnung UBL,
 * Peppol) or a CFDI — into one shape. Total: a hostile, huge, truncated or foreign document gives `Unknown` with
 * its problem (and the first characters of the text), never an exception.
 */
export const readInvoiceXml = (xml: string | Uint8Array, limits: Partial<XmlLimits> = {}): InvoiceRead => {
  const bounds = { ...defaultLimits, ...limits }
  const problems = new Problems()
  const size = typeof xml === "string" ? xml.length : xml.byteLength
  if (size > bounds.maxBytes) {
    problems.add("too_large", `${size} ${typeof xml === "string" ? "characters" : "bytes"}, over ${bounds.maxBytes}`)
    const head =
      typeof xml === "string" ? xml.slice(0, RAW_LIMIT) : new TextDecoder().decode(xml.subarray(0, RAW_LIMIT))
    return refused(head, problems)
  }
  try {
    let text: string
    if (typeof xml === "string") text = xml
    else {
      const decoded = textOf(xml)
      if ("kind" in decoded) {
        problems.add(decoded.kind, decoded.detail)
        return refused(new TextDecoder().decode(xml.subarray(0, RAW_LIMIT)), problems)
      }
      text = decoded.text
    }
    const parsed = parseXml(text, bounds)
    if (parsed._tag === "Refused") {
      problems.add(parsed.kind, parsed.detail)
      return refused(text, problems)
    }
    const root = parsed.root
    if (root.local === "CrossIndustryInvoice" && root.uri === CII_NAMESPACE) return readCii(root, problems)
    if (UBL_NAMESPACES.includes(root.uri) && (root.local === "Invoice" || root.local === "CreditNote"))
      return readUbl(root, problems)
    if (root.local === "Comprobante" && CFDI_NAMESPACES.includes(root.uri)) return readCfdiXml(root, problems)
    problems.add("unrecognised", `root element ${root.local} in ${root.uri || "no namespace"}, not an e-invoice`)
    return refused(text, problems)
  } catch (error) {
    problems.add("malformed_xml", `reader failure: ${error instanceof Error ? error.message : String(error)}`)
    return refused(typeof xml === "string" ? xml : "", problems)
  }
}
