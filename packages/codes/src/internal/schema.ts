import { Schema } from "effect"

const Text = Schema.NullOr(Schema.String)
const Num = Schema.NullOr(Schema.Number)

/** What is wrong with a payload. */
export const ProblemKind = Schema.Literals([
  "unrecognised",
  "bad_encoding",
  "bad_json",
  "truncated",
  "missing_member",
  "wrong_type",
  "bad_value",
  "too_large",
  "too_deep",
  "doctype",
  "malformed_xml"
])
export type ProblemKind = typeof ProblemKind.Type

/** One thing wrong with a payload; `member` names the field it concerns, when one does. */
export const Problem = Schema.Struct({ kind: ProblemKind, member: Text, detail: Schema.String })
export type Problem = typeof Problem.Type

const envelope = {
  /** The payload as read (cut at `RAW_LIMIT` characters). */
  raw: Schema.String,
  /** The barcode format the reader reported (`QRCode`, `PDF417`…), when the caller gave it. */
  format: Text,
  problems: Schema.Array(Problem)
}

/** An Argentine AFIP/ARCA fiscal QR (RG 4892). */
export const Afip = Schema.TaggedStruct("Afip", {
  ...envelope,
  version: Num,
  issueDate: Text,
  /** The issuer's CUIT as printed on Argentine documents: `20-13046568-5`. */
  issuerTaxId: Text,
  pointOfSale: Num,
  /** AFIP's voucher type (`tipoCmp`): 1 Factura A, 6 Factura B, 11 Factura C… */
  documentType: Num,
  documentTypeName: Text,
  number: Num,
  /** Point of sale and number kept whole, as printed: `0005-00011643`. */
  documentNumber: Text,
  total: Num,
  totalText: Text,
  /** ISO 4217 when AFIP's code is known (`PES` → `ARS`), else null; `currencyCode` keeps AFIP's. */
  currency: Text,
  currencyCode: Text,
  exchangeRate: Num,
  buyerDocType: Num,
  buyerDocNumber: Text,
  /** `E` (CAE) or `A` (CAEA). */
  authorizationType: Text,
  authorizationCode: Text,
  cae: Text
})
export type Afip = typeof Afip.Type

/** A Spanish VeriFactu QR (AEAT `ValidarQR`). */
export const VeriFactu = Schema.TaggedStruct("VeriFactu", {
  ...envelope,
  /** `true` for AEAT's `ValidarQRNoVerifactu` service (a billing system that does not send records as it goes). */
  noVerifactu: Schema.Boolean,
  issuerTaxId: Text,
  documentNumber: Text,
  issueDate: Text,
  total: Num,
  totalText: Text
})
export type VeriFactu = typeof VeriFactu.Type

/** A Mexican CFDI verification QR (SAT). */
export const Cfdi = Schema.TaggedStruct("Cfdi", {
  ...envelope,
  /** The fiscal folio (UUID) in upper case. */
  uuid: Text,
  issuerTaxId: Text,
  buyerTaxId: Text,
  total: Num,
  totalText: Text,
  /** The last 8 characters of the issuer's seal. */
  sealTail: Text
})
export type Cfdi = typeof Cfdi.Type

/** A Peruvian SUNAT QR (pipe-separated). */
export const Sunat = Schema.TaggedStruct("Sunat", {
  ...envelope,
  issuerTaxId: Text,
  /** SUNAT's catalogue 01 code: `01` factura, `03` boleta, `07` nota de crédito, `08` nota de débito. */
  documentType: Text,
  documentTypeName: Text,
  series: Text,
  number: Text,
  /** Series and number as printed: `F001-00000123`. */
  documentNumber: Text,
  tax: Num,
  taxText: Text,
  total: Num,
  totalText: Text,
  issueDate: Text,
  buyerDocType: Text,
  buyerDocNumber: Text,
  digest: Text,
  signature: Text
})
export type Sunat = typeof Sunat.Type

/** An EPC/SEPA credit-transfer QR (`BCD`, EPC069-12). */
export const Epc = Schema.TaggedStruct("Epc", {
  ...envelope,
  version: Text,
  /** The text encoding the code declares (line 3), e.g. `UTF-8`. */
  charset: Text,
  bic: Text,
  beneficiary: Text,
  /** Without spaces, upper case. */
  iban: Text,
  total: Num,
  totalText: Text,
  currency: Text,
  purpose: Text,
  /** The structured creditor reference (ISO 11649 `RF…`) or, without one, the unstructured remittance text. */
  reference: Text,
  remittanceText: Text,
  information: Text
})
export type Epc = typeof Epc.Type

/** Content of no known kind, or an e-invoice that could not be read: kept raw, with why. */
export const Unknown = Schema.TaggedStruct("Unknown", envelope)
export type Unknown = typeof Unknown.Type

/** What `decode` makes of one code's text. */
export const Decoded = Schema.Union([Afip, VeriFactu, Cfdi, Sunat, Epc, Unknown])
export type Decoded = typeof Decoded.Type

/** One tax identifier of a party. */
export const TaxId = Schema.Struct({
  /** CII's `schemeID` (`VA` VAT, `FC` fiscal number), UBL's tax scheme, or `RFC`. */
  scheme: Text,
  value: Schema.String
})
export type TaxId = typeof TaxId.Type

/** The seller or the buyer of an e-invoice. */
export const Party = Schema.Struct({
  name: Text,
  /** The VAT number when one is given, else the first tax id. */
  taxId: Text,
  taxIds: Schema.Array(TaxId)
})
export type Party = typeof Party.Type

/** One tax group of an e-invoice: category, rate in percent, basis and amount. */
export const Tax = Schema.Struct({ category: Text, rate: Num, basis: Num, amount: Num })
export type Tax = typeof Tax.Type

/** One line item of an e-invoice. */
export const Line = Schema.Struct({
  id: Text,
  name: Text,
  quantity: Num,
  unitCode: Text,
  unitPrice: Num,
  lineTotal: Num,
  taxRate: Num
})
export type Line = typeof Line.Type

/** The document totals of an e-invoice (EN 16931 BT-106, BT-109, BT-110, BT-112, BT-115). */
export const Totals = Schema.Struct({
  lineTotal: Num,
  taxBasis: Num,
  tax: Num,
  grandTotal: Num,
  duePayable: Num
})
export type Totals = typeof Totals.Type

/** An e-invoice read from its XML: Factur-X/ZUGFeRD/XRechnung CII, UBL (XRechnung, Peppol) or a CFDI. */
export const Invoice = Schema.TaggedStruct("Invoice", {
  syntax: Schema.Literals(["CII", "UBL", "CFDI"]),
  /** The profile or customization the document declares (Factur-X guideline URN, UBL `CustomizationID`, CFDI version). */
  profile: Text,
  problems: Schema.Array(Problem),
  documentNumber: Text,
  documentType: Text,
  issueDate: Text,
  dueDate: Text,
  currency: Text,
  seller: Party,
  buyer: Party,
  totals: Totals,
  taxes: Schema.Array(Tax),
  lines: Schema.Array(Line),
  iban: Text
})
export type Invoice = typeof Invoice.Type

/** What `readInvoiceXml` makes of an XML document. */
export const InvoiceRead = Schema.Union([Invoice, Unknown])
export type InvoiceRead = typeof InvoiceRead.Type

/** `raw` keeps at most this many characters of a payload. */
export const RAW_LIMIT = 4096
