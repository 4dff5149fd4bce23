// UN/CEFACT Cross Industry Invoice (D16B), the syntax of Factur-X 1.0 / ZUGFeRD 2.x (all profiles) and XRechnung
// CII: paths as in the Factur-X 1.07 specification's EN 16931 mapping (BT numbers in comments).
import { amountAt, emptyTotals, party, problemsOf } from "./invoice.js"
import type { Invoice, Line, Tax } from "./schema.js"
import { type Problems, parseDate } from "./text.js"
import { at, childrenNamed, type Element, textAt } from "./xml.js"

export const CII_NAMESPACE = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"

const ciiParty = (element: Element | undefined) =>
  party(
    textAt(element, "Name"),
    childrenNamed(element, "SpecifiedTaxRegistration").flatMap((registration) => {
      const id = at(registration, "ID")
      const value = id?.text.trim()
      return value ? [{ scheme: id?.attributes.get("schemeID") ?? null, value }] : []
    })
  )

// CII dates carry a format code; 102 (CCYYMMDD) is the one EN 16931 allows.
const ciiDate = (element: Element | undefined, problems: Problems, member: string): string | null => {
  const text = textAt(element, "DateTimeString")
  if (text === null) return null
  const date = parseDate(text)
  if (date === null) problems.add("bad_value", `${member} ${text} is not a date`, member)
  return date
}

export const readCii = (root: Element, problems: Problems): Invoice => {
  const document = at(root, "ExchangedDocument")
  const transaction = at(root, "SupplyChainTradeTransaction")
  const agreement = at(transaction, "ApplicableHeaderTradeAgreement")
  const settlement = at(transaction, "ApplicableHeaderTradeSettlement")
  const summation = at(settlement, "SpecifiedTradeSettlementHeaderMonetarySummation")
  const currency = textAt(settlement, "InvoiceCurrencyCode")

  const taxes: Array<Tax> = childrenNamed(settlement, "ApplicableTradeTax").map((tax) => ({
    category: textAt(tax, "CategoryCode"),
    rate: amountAt(tax, problems, "RateApplicablePercent"),
    basis: amountAt(tax, problems, "BasisAmount"),
    amount: amountAt(tax, problems, "CalculatedAmount")
  }))

  const lines: Array<Line> = childrenNamed(transaction, "IncludedSupplyChainTradeLineItem").map((item) => {
    const quantity = at(item, "SpecifiedLineTradeDelivery", "BilledQuantity")
    return {
      id: textAt(item, "AssociatedDocumentLineDocument", "LineID"),
      name: textAt(item, "SpecifiedTradeProduct", "Name"),
      quantity: amountAt(quantity, problems),
      unitCode: quantity?.attributes.get("unitCode") ?? null,
      unitPrice: amountAt(
        at(item, "SpecifiedLineTradeAgreement", "NetPriceProductTradePrice"),
        problems,
        "ChargeAmount"
      ),
      lineTotal: amountAt(
        at(item, "SpecifiedLineTradeSettlement", "SpecifiedTradeSettlementLineMonetarySummation"),
        problems,
        "LineTotalAmount"
      ),
      taxRate: amountAt(
        at(item, "SpecifiedLineTradeSettlement", "ApplicableTradeTax"),
        problems,
        "RateApplicablePercent"
      )
    }
  })

  // BT-110: the tax total in the invoice currency (a second one may be given in the accounting currency).
  const taxTotals = childrenNamed(summation, "TaxTotalAmount")
  const taxTotal =
    taxTotals.find((total) => (total.attributes.get("currencyID") ?? currency) === currency) ?? taxTotals[0]

  const documentNumber = textAt(document, "ID")
  if (documentNumber === null) problems.add("missing_member", "no invoice number (BT-1)", "ExchangedDocument/ID")
  const issueDate = ciiDate(at(document, "IssueDateTime"), problems, "IssueDateTime")
  if (issueDate === null) problems.add("missing_member", "no issue date (BT-2)", "ExchangedDocument/IssueDateTime")

  // Problems are gathered last: reading the fields below adds them.
  const read: Omit<Invoice, "problems"> = {
    _tag: "Invoice",
    syntax: "CII",
    profile: textAt(root, "ExchangedDocumentContext", "GuidelineSpecifiedDocumentContextParameter", "ID"),
    documentNumber,
    documentType: textAt(document, "TypeCode"),
    issueDate,
    dueDate: ciiDate(at(settlement, "SpecifiedTradePaymentTerms", "DueDateDateTime"), problems, "DueDateDateTime"),
    currency,
    seller: ciiParty(at(agreement, "SellerTradeParty")),
    buyer: ciiParty(at(agreement, "BuyerTradeParty")),
    totals: {
      ...emptyTotals,
      lineTotal: amountAt(summation, problems, "LineTotalAmount"),
      taxBasis: amountAt(summation, problems, "TaxBasisTotalAmount"),
      tax: amountAt(taxTotal, problems),
      grandTotal: amountAt(summation, problems, "GrandTotalAmount"),
      duePayable: amountAt(summation, problems, "DuePayableAmount")
    },
    taxes,
    lines,
    iban: textAt(settlement, "SpecifiedTradeSettlementPaymentMeans", "PayeePartyCreditorFinancialAccount", "IBANID")
  }
  return { ...read, problems: problemsOf(problems) }
}
