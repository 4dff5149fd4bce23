// Builders of valid payloads of each kind, for tests and benchmarks: the inverse of the readers, written from the
// same specifications (cited in each reader's header).

/** The members of an AFIP QR (RG 4892); the CUIT with or without hyphens. */
export interface AfipFields {
  readonly issueDate: string
  readonly cuit: string
  readonly pointOfSale: number
  readonly documentType: number
  readonly number: number
  readonly total: number
  /** AFIP's currency code: `PES`, `DOL`, `060`… */
  readonly currencyCode?: string
  readonly exchangeRate?: number
  readonly buyerDocType?: number
  readonly buyerDocNumber?: string
  readonly authorizationType?: "E" | "A"
  readonly authorizationCode: string
}

/** AFIP's QR URL: the fields as JSON in the specification's member order, base64 (standard, padded). */
export const encodeAfip = (fields: AfipFields): string => {
  const digits = (text: string) => text.replace(/\D/g, "")
  // Numbers are written from their digits so that 14-digit codes are never rounded through a double.
  const members = [
    `"ver":1`,
    `"fecha":${JSON.stringify(fields.issueDate)}`,
    `"cuit":${digits(fields.cuit)}`,
    `"ptoVta":${fields.pointOfSale}`,
    `"tipoCmp":${fields.documentType}`,
    `"nroCmp":${fields.number}`,
    `"importe":${fields.total}`,
    `"moneda":${JSON.stringify(fields.currencyCode ?? "PES")}`,
    `"ctz":${fields.exchangeRate ?? 1}`,
    ...(fields.buyerDocType === undefined ? [] : [`"tipoDocRec":${fields.buyerDocType}`]),
    ...(fields.buyerDocNumber === undefined ? [] : [`"nroDocRec":${digits(fields.buyerDocNumber)}`]),
    `"tipoCodAut":${JSON.stringify(fields.authorizationType ?? "E")}`,
    `"codAut":${digits(fields.authorizationCode)}`
  ]
  return `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(`{${members.join(",")}}`, "utf8").toString("base64")}`
}

export interface VeriFactuFields {
  readonly nif: string
  readonly documentNumber: string
  /** `YYYY-MM-DD`. */
  readonly issueDate: string
  readonly total: number
  readonly noVerifactu?: boolean
}

/** AEAT's `ValidarQR` URL (production host). */
export const encodeVeriFactu = (fields: VeriFactuFields): string => {
  const [year, month, day] = fields.issueDate.split("-")
  const query = [
    `nif=${encodeURIComponent(fields.nif)}`,
    `numserie=${encodeURIComponent(fields.documentNumber)}`,
    `fecha=${day}-${month}-${year}`,
    `importe=${fields.total.toFixed(2)}`
  ].join("&")
  const service = fields.noVerifactu ? "ValidarQRNoVerifactu" : "ValidarQR"
  return `https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/${service}?${query}`
}

export interface SatFields {
  readonly uuid: string
  readonly issuerRfc: string
  readonly buyerRfc: string
  readonly total: number
  /** The last 8 characters of the issuer's seal (base64 characters). */
  readonly sealTail: string
}

/** SAT's CFDI 4.0 verification URL (`tt` without insignificant zeros, as Anexo 20 asks). */
export const encodeSat = (fields: SatFields): string =>
  "https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?" +
  [
    `id=${fields.uuid.toUpperCase()}`,
    `re=${encodeURIComponent(fields.issuerRfc)}`,
    `rr=${encodeURIComponent(fields.buyerRfc)}`,
    `tt=${Number(fields.total.toFixed(6))}`,
    `fe=${encodeURIComponent(fields.sealTail)}`
  ].join("&")

export interface SunatFields {
  readonly ruc: string
  /** Catálogo 01: `01` factura, `03` boleta… */
  readonly documentType: string
  readonly series: string
  readonly number: string
  readonly tax: number
  readonly total: number
  /** `YYYY-MM-DD`. */
  readonly issueDate: string
  readonly buyerDocType?: string
  readonly buyerDocNumber?: string
  readonly digest?: string
}

/** SUNAT's pipe-separated payload, with its closing pipe. */
export const encodeSunat = (fields: SunatFields): string =>
  [
    fields.ruc,
    fields.documentType,
    fields.series,
    fields.number,
    fields.tax.toFixed(2),
    fields.total.toFixed(2),
    fields.issueDate,
    fields.buyerDocType ?? "",
    fields.buyerDocNumber ?? "",
    fields.digest ?? "",
    ""
  ].join("|")

export interface EpcFields {
  readonly version?: "001" | "002"
  readonly bic?: string
  readonly beneficiary: string
  readonly iban: string
  /** In euros; absent for a code that lets the payer type the amount. */
  readonly total?: number
  readonly purpose?: string
  /** A structured creditor reference (`RF…`); give this or `text`, not both. */
  readonly reference?: string
  readonly text?: string
  readonly information?: string
}

/** An EPC069-12 payload in UTF-8 (character set 1), trailing empty lines left out. */
export const encodeEpc = (fields: EpcFields): string => {
  const lines = [
    "BCD",
    fields.version ?? "002",
    "1",
    "SCT",
    fields.bic ?? "",
    fields.beneficiary,
    fields.iban,
    fields.total === undefined ? "" : `EUR${fields.total.toFixed(2)}`,
    fields.purpose ?? "",
    fields.reference ?? "",
    fields.text ?? "",
    fields.information ?? ""
  ]
  while (lines.at(-1) === "") lines.pop()
  return lines.join("\n")
}
