import type { Decoded, Invoice } from "./schema.js"

/** The concepts a document's fields ask for, as one decoded code or e-invoice states them. */
export interface Facts {
  readonly issuerTaxId: string | null
  readonly buyerTaxId: string | null
  readonly documentNumber: string | null
  readonly issueDate: string | null
  readonly total: number | null
  readonly currency: string | null
  readonly iban: string | null
}

const none: Facts = {
  issuerTaxId: null,
  buyerTaxId: null,
  documentNumber: null,
  issueDate: null,
  total: null,
  currency: null,
  iban: null
}

/** The concept-level view of a result, the same for every kind of code, so callers need not know each format. */
export const facts = (decoded: Decoded | Invoice): Facts => {
  switch (decoded._tag) {
    case "Afip":
      return { ...none, ...pick(decoded), buyerTaxId: decoded.buyerDocNumber, currency: decoded.currency }
    case "VeriFactu":
      return { ...none, ...pick(decoded) }
    case "Cfdi":
      return {
        ...none,
        issuerTaxId: decoded.issuerTaxId,
        buyerTaxId: decoded.buyerTaxId,
        documentNumber: decoded.uuid,
        total: decoded.total
      }
    case "Sunat":
      return { ...none, ...pick(decoded), buyerTaxId: decoded.buyerDocNumber }
    case "Epc":
      return { ...none, total: decoded.total, currency: decoded.currency, iban: decoded.iban }
    case "Invoice":
      return {
        issuerTaxId: decoded.seller.taxId,
        buyerTaxId: decoded.buyer.taxId,
        documentNumber: decoded.documentNumber,
        issueDate: decoded.issueDate,
        total: decoded.totals.grandTotal ?? decoded.totals.duePayable,
        currency: decoded.currency,
        iban: decoded.iban
      }
    case "Unknown":
      return none
  }
}

const pick = (decoded: {
  readonly issuerTaxId: string | null
  readonly documentNumber: string | null
  readonly issueDate: string | null
  readonly total: number | null
}) => ({
  issuerTaxId: decoded.issuerTaxId,
  documentNumber: decoded.documentNumber,
  issueDate: decoded.issueDate,
  total: decoded.total
})
