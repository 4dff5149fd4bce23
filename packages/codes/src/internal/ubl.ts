// OASIS UBL 2.1 `Invoice` and `CreditNote`, the other syntax of EN 16931 (XRechnung UBL, Peppol BIS Billing 3.0):
// paths as in the EN 16931-3-2 UBL binding (BT numbers in comments).
import { amountAt, emptyTotals, party, problemsOf } from "./invoice.js"
import type { Invoice, Line, Tax } from "./schema.js"
import { type Problems, parseDate } from "./text.js"
import { at, childrenNamed, type Element, textAt } from "./xml.js"

export const UBL_NAMESPACES = [
  "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
]

const ublParty = (element: Element | undefined) => {
  const partyElement = at(element, "Party")
  const name = textAt(partyElement, "PartyLegalEntity", "RegistrationName") ?? textAt(partyElement, "PartyName", "Name")
  const taxIds = childrenNamed(partyElement, "PartyTaxScheme").flatMap((scheme) => {
    const value = textAt(scheme, "CompanyID")
    return value ? [{ scheme: textAt(scheme, "TaxScheme", "ID"), value }] : []
  })
  const legalId = textAt(partyElement, "PartyLegalEntity", "CompanyID")
  return party(name, legalId ? [...taxIds, { scheme: "legal", value: legalId }] : taxIds)
}

const ublDate = (element: Element | undefined, local: string, problems: Problems): string | null => {
  const text = textAt(element, local)
  if (text === null) return null
  const date = parseDate(text)
  if (date === null) problems.add("bad_value", `${local} ${text} is not a date`, local)
  return date
}

export const readUbl = (root: Element, problems: Problems): Invoice => {
  const credit = root.local === "CreditNote"
  const currency = textAt(root, "DocumentCurrencyCode")
  const totals = at(root, "LegalMonetaryTotal")
  // BG-22: the tax total in the document currency is the one with subtotals (a second may be in the tax currency).
  const taxTotals = childrenNamed(root, "TaxTotal")
  const taxTotal = taxTotals.find((total) => childrenNamed(total, "TaxSubtotal").length > 0) ?? taxTotals[0]

  const taxes: Array<Tax> = childrenNamed(taxTotal, "TaxSubtotal").map((subtotal) => ({
    category: textAt(subtotal, "TaxCategory", "ID"),
    rate: amountAt(subtotal, problems, "TaxCategory", "Percent"),
    basis: amountAt(subtotal, problems, "TaxableAmount"),
    amount: amountAt(subtotal, problems, "TaxAmount")
  }))

  const lines: Array<Line> = childrenNamed(root, credit ? "CreditNoteLine" : "InvoiceLine").map((line) => {
    const quantity = at(line, credit ? "CreditedQuantity" : "InvoicedQuantity")
    return {
      id: textAt(line, "ID"),
      name: textAt(line, "Item", "Name"),
      quantity: amountAt(quantity, problems),
      unitCode: quantity?.attributes.get("unitCode") ?? null,
      unitPrice: amountAt(line, problems, "Price", "PriceAmount"),
      lineTotal: amountAt(line, problems, "LineExtensionAmount"),
      taxRate: amountAt(line, problems, "Item", "ClassifiedTaxCategory", "Percent")
    }
  })

  const documentNumber = textAt(root, "ID")
  if (documentNumber === null) problems.add("missing_member", "no invoice number (BT-1)", "ID")
  const issueDate = ublDate(root, "IssueDate", problems)
  if (issueDate === null) problems.add("missing_member", "no issue date (BT-2)", "IssueDate")

  // Problems are gathered last: reading the fields below adds them.
  const read: Omit<Invoice, "problems"> = {
    _tag: "Invoice",
    syntax: "UBL",
    profile: textAt(root, "CustomizationID"),
    documentNumber,
    documentType: textAt(root, credit ? "CreditNoteTypeCode" : "InvoiceTypeCode"),
    issueDate,
    dueDate: ublDate(root, "DueDate", problems) ?? ublDate(at(root, "PaymentMeans"), "PaymentDueDate", problems),
    currency,
    seller: ublParty(at(root, "AccountingSupplierParty")),
    buyer: ublParty(at(root, "AccountingCustomerParty")),
    totals: {
      ...emptyTotals,
      lineTotal: amountAt(totals, problems, "LineExtensionAmount"),
      taxBasis: amountAt(totals, problems, "TaxExclusiveAmount"),
      tax: amountAt(taxTotal, problems, "TaxAmount"),
      grandTotal: amountAt(totals, problems, "TaxInclusiveAmount"),
      duePayable: amountAt(totals, problems, "PayableAmount")
    },
    taxes,
    lines,
    iban: textAt(root, "PaymentMeans", "PayeeFinancialAccount", "ID")
  }
  return { ...read, problems: problemsOf(problems) }
}
