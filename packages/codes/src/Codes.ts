/**
 * Machine-readable invoice data: the fiscal QR codes of Argentina (AFIP/ARCA), Spain (VeriFactu), Mexico (SAT CFDI),
 * Peru (SUNAT) and the EPC/SEPA payment code, and e-invoice XML (Factur-X/ZUGFeRD/XRechnung CII, UBL, CFDI). The
 * readers are total pure functions; the `encode…` builders write valid payloads of each kind for tests and benchmarks.
 */
export { decode } from "./internal/decode.js"
export {
  type AfipFields,
  type EpcFields,
  encodeAfip,
  encodeEpc,
  encodeSat,
  encodeSunat,
  encodeVeriFactu,
  type SatFields,
  type SunatFields,
  type VeriFactuFields
} from "./internal/encode.js"
export { type Facts, facts } from "./internal/facts.js"
export {
  encodeFacturX,
  type FacturXFields,
  type FacturXLine,
  type FacturXParty,
  facturXTotals
} from "./internal/facturx.js"
export { readInvoiceXml } from "./internal/invoiceXml.js"
export {
  Afip,
  Cfdi,
  Decoded,
  Epc,
  Invoice,
  InvoiceRead,
  Line,
  Party,
  Problem,
  ProblemKind,
  RAW_LIMIT,
  Sunat,
  Tax,
  TaxId,
  Totals,
  Unknown,
  VeriFactu
} from "./internal/schema.js"
export { defaultLimits, type XmlLimits } from "./internal/xml.js"
