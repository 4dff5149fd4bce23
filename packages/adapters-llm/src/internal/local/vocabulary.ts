/**
 * The words documents print around values, in Spanish, English, German, French, Italian, Portuguese and Dutch,
 * with the commonest Polish invoice labels (folded: lower case, no accents). Data only: the rules that use them live in `totals.ts`, `dates.ts`,
 * `numbers.ts`, `issuer.ts` and `receiptLines.ts`.
 */

import { Months } from "@legible/core"

/** How strongly an amount's label says "the amount due", best first; `none` labels never give the total. */
export type TotalRank = "due" | "total" | "subtotal"

// A payment made (`Fecha de pago`, `Payment date`, `Zahlungsdatum`; not `Date paid`, a receipt's own date), the
// operation's where it differs from the invoice's (`Fecha de operación`), a leave or a cancellation (`Fecha de baja`).
const PAYMENT_DATE = ["pago", "payment", "zahlung", "zahlungsdatum", "paiement", "pagamento", "betaling", "betaaldatum"]
const OPERATION_DATE = ["operacion", "realizacion"]
const LEAVE_DATE = ["baja", "cancelacion", "cancellation", "kundigung", "resiliation"]

/**
 * Words that name a date only beside a date's word (`Fecha de pago`, `Payment date`, `Datum der Zahlung`, `Fecha de
 * operación`, `Fecha de baja`) or compounded with one (`Zahlungsdatum`): alone they label other things (`Forma de
 * pago`, `Nº operación`), never the date under or after them.
 */
export const DATED_ONLY_WORDS: ReadonlyArray<string> = [...PAYMENT_DATE, ...OPERATION_DATE, ...LEAVE_DATE]

/**
 * A journey's or a flight's day (`Fecha del viaje`, `Travel date`, `Reisedatum`): a ticket's own date where no label
 * names it so.
 */
export const JOURNEY_DATE: ReadonlyArray<string> = [
  ...["viaje", "travel", "reise", "voyage", "viaggio", "viagem", "vuelo", "flight", "flug", "volo", "voo"],
  "vlucht"
]

/** A notice's day (`Fecha de notificación`, `Date of notice`, `Zustellung`): the notice's own where none is labelled so. */
export const NOTICE_DATE: ReadonlyArray<string> = [
  ...["notificacion", "notice", "notification", "zustellung", "zugestellt", "notifica", "notificazione"],
  ...["notificacao", "kennisgeving"]
]

/**
 * Dates of other things than the document's (folded label words), by what they date. A word the reader doubted is
 * also read as the label word it is a slip away from (`dates.ts`): none here may be a slip away from a town's or a
 * label's word on a date's row (`vigencia` was, of `Valencia` in `01911 Valencia  Fecha factura: 04.09.2023` on fresh
 * seed 9209's rasterised half, which lost that date; `partida` would be of Italy's `Partita IVA`: both left out).: a field that asks for one
 * (`fecha_nacimiento`, `dob`, `Start date`) takes a date a word of its group labels.
 */
export const OTHER_DATE_GROUPS: ReadonlyArray<ReadonlyArray<string>> = [
  // a birth (`Fecha de nacimiento`, `DOB`, `F. Nac.`, `geb.`, `Data di nascita`, `Né le`, `Geboortedatum`)
  [
    ...["nacimiento", "birth", "born", "dob", "nac", "geburtsdatum", "geb", "geboren", "nascita", "nascimento"],
    ...["naissance", "geboortedatum"]
  ],
  // a start or an admission (`Fecha de inicio`, `Start date`, `Beginn`, `Début`, `Inizio`, `Fecha de alta`)
  ["inicio", "start", "beginn", "debut", "inizio", "alta"],
  // a print
  ["impresion"],
  // a payment, the operation, a leave (`DATED_ONLY_WORDS`)
  PAYMENT_DATE,
  OPERATION_DATE,
  LEAVE_DATE,
  // a direct debit's day: `Montant prélevé le`, `wird am … abgebucht`, `Fecha de cargo`, `addebito il`
  ["preleve", "prelevement", "abgebucht", "abbuchung", "debited", "cargo", "addebito", "geincasseerd"],
  // an arrival and a departure (`Fecha de entrada`, `Arrival`, `Check-in`, `Anreise`; `Salida`, `Abreise`, `Départ`)
  [...["entrada", "llegada", "arrival", "checkin", "anreise", "ankunft", "arrivee", "arrivo", "chegada"], "aankomst"],
  [...["salida", "departure", "checkout", "abreise", "abfahrt", "depart", "partenza", "saida"], "vertrek"],
  // a journey's or a flight's day (`Fecha del viaje`, `Travel date`, `Reisedatum`, `Flight date`)
  JOURNEY_DATE,
  // a policy's or a contract's taking effect (`Fecha de efecto`, `Effective date`, `Date d'effet`, `Decorrenza`)
  ["efecto", "effective", "wirksam", "inkrafttreten", "effet", "decorrenza"],
  // an offence's (`Fecha de la infracción`, `Date of offence`, `Tatzeit`)
  [
    ...["infraccion", "denuncia", "offence", "offense", "violation", "contravention", "tatzeit", "tattag"],
    ...["infraction", "infrazione"]
  ],
  // a notice's (`Fecha de notificación`, `Date of notice`): the notice's own date where no label names it so
  NOTICE_DATE,
  // a signature's (`Fecha de firma`, `Signed on`, `Unterschrift`, `Signé le`)
  ["firma", "signature", "signed", "unterschrift", "unterzeichnet", "signe", "assinatura", "ondertekend"],
  // a vehicle's registration (`Fecha de matriculación`, `Erstzulassung`, `Date de 1re immatriculation`)
  ["matriculacion", "zulassung", "erstzulassung", "immatriculation", "immatricolazione"]
]

/** Label phrases of amounts, by rank. A row's label takes the rank of its longest phrase. */
export const TOTAL_LABELS: ReadonlyArray<readonly [TotalRank, ReadonlyArray<string>]> = [
  [
    "due",
    [
      // es
      "total a pagar",
      "importe a pagar",
      "a pagar",
      "importe total",
      "total factura",
      "total con iva",
      "total iva incluido",
      "monto total",
      "total general",
      // en
      "grand total",
      "amount due",
      "balance due",
      "total due",
      "total amount",
      "total payable",
      "amount payable",
      "rounded total",
      "total rounded",
      "total after rounding",
      "invoice total",
      "invoice amount",
      "net payable",
      // de
      "zu zahlen",
      "gesamtbetrag",
      "gesamtsumme",
      "endbetrag",
      "rechnungsbetrag",
      "zahlbetrag",
      "summe brutto",
      "bruttobetrag",
      "endsumme",
      "total brutto",
      // the amount owed (`Fälliger Betrag`, `Offener Betrag`)
      ...["falliger betrag", "offener betrag"],
      // fr
      "total ttc",
      "net a payer",
      "montant ttc",
      "montant total",
      "total a payer",
      "a payer",
      "montant du",
      "solde du",
      // the amount to settle (`Montant à régler`, `Net à régler`), what is left to pay
      ...["montant a regler", "net a regler", "total a regler", "a regler", "reste a payer"],
      // it
      "totale da pagare",
      "importo totale",
      "totale documento",
      "totale fattura",
      "da pagare",
      "netto a pagare",
      // pt
      "total a pagar",
      "valor total",
      "valor a pagar",
      "total da fatura",
      "total do documento",
      // nl
      "te betalen",
      "totaal te betalen",
      "totaalbedrag",
      "totaal incl",
      "eindtotaal",
      // pl: `Należność ogółem` (the whole amount owed), `Do zapłaty` (to pay)
      "naleznosc",
      "naleznosc ogolem",
      "do zaplaty",
      "razem do zaplaty"
    ]
  ],
  [
    "total",
    // pl: `Razem` (together); not `Suma`, the lines' sum before a discount on Spanish invoices as often as a total
    [
      ...["total", "totales", "summe", "gesamt", "gesamtpreis", "totale", "totaal", "somme"],
      ...["nett total", "net total", "total neto"],
      "bonsumme",
      "razem"
    ]
  ],
  [
    "subtotal",
    [
      "subtotal",
      "sub total",
      "zwischensumme",
      // de: the net value (`Nettowert`, `Summe netto`, `Nettosumme`); not `Warenwert`, the goods' value with tax as often
      ...["nettowert", "summe netto", "nettosumme"],
      "sous total",
      "subtotale",
      "subtotaal",
      "base imponible",
      "base imp",
      "total ht",
      "total sin iva",
      "total excl",
      "total excluding",
      "netto",
      "nettobetrag",
      "imponibile",
      "incidencia",
      "base tributavel",
      // pt: the sum of the lines before discounts and taxes
      "total iliquido",
      // es: the lines' sum over a discount (`Suma`)
      "suma",
      "netto bedrag",
      "net amount",
      "montant ht",
      "base ht",
      // es (AFIP): `Importe Neto Gravado`, the lines' sum before IVA
      "importe neto",
      // es (pe): the sales taxed, exempt and out of the tax's scope (`OP. GRAVADA`, `OP. EXONERADA`, `OP. INAFECTA`)
      ...["op gravada", "op gravadas", "op exonerada", "op exoneradas", "op inafecta", "op inafectas"]
    ]
  ]
]

/** Words of taxes: a labelled amount with one is a tax, unless it says the total includes it. */
export const TAX_WORDS: ReadonlyArray<string> = [
  "iva",
  "vat",
  "gst",
  "sst",
  "tax",
  "taxes",
  "mwst",
  "ust",
  "steuer",
  "tva",
  "taxe",
  "btw",
  "imposta",
  "impuesto",
  "impuestos",
  "imposto",
  "cuota",
  // Peru's IGV, the Dominican ITBIS, Mexico's IEPS; Canada's HST, PST, QST and Quebec's TPS, TVQ; India's GST's
  // shares (CGST, SGST, IGST, UTGST) and cess; Spain's IRPF and Italy's ritenuta, withheld
  ...["igv", "itbis", "ieps", "hst", "pst", "qst", "tps", "tvq", "cgst", "sgst", "igst", "utgst", "cess"],
  ...["irpf", "ritenuta"]
]

/**
 * Words that name an amount before taxes in a field's name or description (`base_imponible`, `Net amount`, `total
 * sin IVA`, `Montant HT`), folded.
 */
export const NET_WORDS: ReadonlyArray<string> = [
  ...["subtotal", "neto", "net", "netto", "nettobetrag", "base", "imponible", "imponibile", "ht", "iliquido"],
  ...["incidencia", "tributavel", "excl", "exkl", "excluding", "sin", "ohne", "hors", "sem", "exclusief", "before"]
]

/**
 * Words of tax ids: a number word right after one (`Tax ID`, `VAT No.`, `USt-IdNr.`, `BTW-nr.`, `St.-Nr.`) labels
 * the tax id, not the document's number.
 */
export const TAX_ID_WORDS: ReadonlyArray<string> = [
  ...["tax", "vat", "gst", "sst", "iva", "tva", "btw", "ust", "mwst", "steuer", "cif", "nif", "nie", "cuit", "rfc"],
  ...["siret", "siren", "contribuinte", "company", "reg", "registration", "business", "kvk", "abn", "st"],
  // India's GSTIN, Australia's ACN, Singapore's UEN
  ...["gstin", "acn", "uen"]
]

/** Words of savings and discounts: an amount they label is taken off, never the total. */
export const SAVING_WORDS: ReadonlyArray<string> = [
  ...["ventajas", "ahorro", "ahorrado", "descuento", "descuentos", "dto", "discount", "savings", "saved"],
  ...["rabatt", "ersparnis", "gespart", "nachlass", "preisvorteil", "remise", "economie", "sconto", "risparmio"],
  ...["desconto", "descontos", "sconti", "remises", "rabatte"],
  ...["poupanca", "korting", "besparing", "voucher", "cupon", "coupon", "puntos", "points"],
  // a promotion's reduction: `Promoção: -6,12`, `Promoción`, `Promozione`, `Actie`
  ...["promocion", "promocao", "promozione", "promotion", "actie"]
]

/** Words of the amount tendered and of payment instruments: what the customer handed over. */
export const TENDER_WORDS: ReadonlyArray<string> = [
  ...["efectivo", "entregado", "recibido", "cash", "tendered", "bar", "gegeben", "especes", "contanti", "contant"],
  ...["dinheiro", "tarjeta", "card", "karte", "kreditkarte", "carte", "carta", "cartao", "multibanco", "visa"],
  ...["mastercard", "credit", "debit", "ec", "paid", "payment", "pagado", "pago", "bezahlt", "regle", "pagato"],
  ...["pagamento", "betaald", "pin", "girocard", "kartenzahlung", "maestro", "vpay", "bargeld", "geg"],
  // fr: `CB` (carte bancaire); it: `Bancomat`; nl: `Pinnen`, `Gepind` (paid by debit card)
  ...["cb", "amex", "bancomat", "pinnen", "gepind", "contante"],
  // es: `ENTREGA 110,00` (the cash handed over) beside `A devolver`
  "entrega"
]

/** The tender's words that say an amount was paid (`Total paid`, `Pagado`, `Bezahlt`): the total's as often. */
export const PAYING_WORDS: ReadonlyArray<string> = [
  ...["paid", "payment", "pagado", "pago", "bezahlt", "regle", "pagato", "pagamento", "betaald"]
]
const PAYING = new Set(PAYING_WORDS)

/** Words of the change given back. */
export const CHANGE_WORDS: ReadonlyArray<string> = [
  ...["cambio", "vuelto", "change", "ruckgeld", "wechselgeld", "zuruck", "rendu", "resto", "troco", "wisselgeld"],
  // es: `A devolver`, fr: `Monnaie rendue`, nl: `Terug`
  ...["devolver", "monnaie", "terug"]
]

/**
 * Words of a charge added to the goods under the subtotal (`Shipping`, `Versandkosten`, `Frais de port`, `Envío`):
 * the total is the subtotal with it.
 */
export const CHARGE_WORDS: ReadonlyArray<string> = [
  ...["shipping", "freight", "postage", "handling", "delivery"],
  ...["versand", "versandkosten", "porto", "fracht", "frachtkosten", "lieferkosten"],
  ...["envio", "portes", "livraison", "port", "spedizione", "trasporto", "frete"],
  ...["verzendkosten", "verzending", "bezorgkosten"],
  // a charge of any kind (`Service charge 12.5%`, `Surcharge`) and a tip (`Gratuity`, `Propina`, `Trinkgeld`,
  // `Pourboire`, `Mancia`, `Fooi`): so named, `charge` is never `change` misread
  ...["charge", "charges", "surcharge", "gratuity", "tip", "propina", "trinkgeld", "pourboire", "mancia", "fooi"]
]

/** Words of a rounding adjustment (`Rounding adj`, `Redondeo`, `Rundungsdifferenz`, `Arrondi`, `Afronding`). */
export const ROUNDING_WORDS: ReadonlyArray<string> = [
  ...["rounding", "redondeo", "rundung", "rundungsdifferenz", "arrondi", "arrondissement", "arrotondamento"],
  ...["arredondamento", "afronding", "adj", "adjustment"]
]

/** Words of counts of items: an amount they label is a number of things. */
export const COUNT_WORDS: ReadonlyArray<string> = [
  ...["qty", "quantity", "cantidad", "items", "item", "unidades", "articulos", "pcs", "uds", "stuck", "anzahl"],
  ...["articles", "pezzi", "artikel", "artikelen", "lines"],
  // pt: `Qtde. total de itens`; nl: `Aantal artikelen`
  ...["itens", "qtde", "qtd", "quantidade", "aantal"]
]

/**
 * Words that make a labelled amount something other than the total: savings and discounts, the amount tendered
 * and the payment instrument, change given back, and counts of items.
 */
export const NOT_TOTAL_WORDS: ReadonlyArray<string> = [
  ...SAVING_WORDS,
  // `Total paid` may be the total's own label: a word of paying is a tender only beside the total.
  ...TENDER_WORDS.filter((w) => !PAYING.has(w)),
  ...CHANGE_WORDS,
  ...COUNT_WORDS
]

/**
 * A page's sum carried to the next (folded phrases): `Übertrag`, `Carried forward`, `Suma y sigue`, `Riporto`. Not
 * `Transport` nor `Transporte`, a line of carriage as often.
 */
export const CARRIED_FORWARD: ReadonlyArray<string> = [
  ...["ubertrag", "uebertrag"],
  ...["carried forward", "brought forward", "carry forward", "balance forward"],
  ...["suma y sigue", "suma anterior", "a transportar"],
  ...["a reporter", "report a nouveau"],
  ...["riporto", "da riportare", "a riportare"]
]

/** Words after which a tax word describes the total rather than naming a tax amount ("Total incl. GST"). */
export const INCLUDING_WORDS: ReadonlyArray<string> = [
  "incl",
  "inc",
  "including",
  "inclusive",
  "includes",
  "con",
  // `c/IVA` (con IVA) on Spanish and Argentine invoices
  "c",
  "incluido",
  "inkl",
  "inklusive",
  "compris",
  "ttc",
  "incluso",
  "incluindo",
  "inclusief"
]

/**
 * Words after a tax word that say the total includes it, where a language puts them after ("TOTAL (IVA INCL.)",
 * "IVA incluido", "TVA comprise", "IVA compresa", "IVA incluído").
 */
export const INCLUDED_AFTER_WORDS: ReadonlyArray<string> = [
  "incl",
  "inc",
  "included",
  "inclusive",
  "incluido",
  "incluida",
  "incluidos",
  "incluso",
  "inclusa",
  "compreso",
  "compresa",
  "compris",
  "comprise",
  "inclus",
  "incluse"
]

/** Words after which a tax word makes the amount a net one ("Total excl. VAT", "Total sin IVA"). */
export const EXCLUDING_WORDS: ReadonlyArray<string> = [
  "excl",
  "excluding",
  "exclusive",
  "ex",
  "sin",
  // `s/IVA` (sin IVA)
  "s",
  "ohne",
  "exkl",
  "hors",
  "ht",
  "escluso",
  "sem",
  "exclusief",
  "before",
  "excluded",
  "exc"
]

/** What a date is, by its label: the issue date, or one of the dates documents print beside it. */
export type DateKind = "issue" | "due" | "expiry" | "period" | "delivery" | "order" | "other"

/** Label words of dates by kind; a date whose nearest label has none of them is unlabelled. */
export const DATE_LABELS: ReadonlyArray<readonly [DateKind, ReadonlyArray<string>]> = [
  [
    "due",
    [
      "vencimiento",
      "vto",
      "vence",
      "due",
      "payable",
      "faellig",
      "fallig",
      "falligkeit",
      "zahlbar",
      "zahlungsziel",
      "echeance",
      "scadenza",
      "scad",
      "vencimento",
      "vervaldatum",
      "verval",
      "uiterlijk",
      "uiterste",
      // `fecha límite`, `date limite`, `data limite (de pagamento)`: the last day to pay
      "limite",
      // `À payer avant le`, `Pagare entro il`, `Pagar antes de`, `Pay before`: the same
      "avant",
      "entro",
      "antes",
      "before",
      // `Pay by`
      "pay",
      // Polish: `Termin płatności` (the term of payment)
      "termin",
      "platnosci"
    ]
  ],
  [
    "expiry",
    [
      "cae",
      "cai",
      "caducidad",
      "expiry",
      "expires",
      "expiration",
      "exp",
      "valid",
      "validez",
      "gultig",
      "validite",
      "validita",
      "validade",
      "geldig",
      "mhd",
      // coupons and returns: `einlösbar bis`, `Umtausch bis`, `Devoluciones hasta`, `Returns accepted until`
      "einlosbar",
      "umtausch",
      "ruckgabe",
      "devoluciones",
      "devolucion",
      "returns",
      "retour",
      "reso",
      "troca",
      "ruilen"
    ]
  ],
  [
    "period",
    [
      "periodo",
      "period",
      "desde",
      "hasta",
      "from",
      "until",
      // `bis`, `jusqu'au`, `fino al`, `até`: the end of a period or of a validity
      "bis",
      "jusqu",
      "fino",
      "ate",
      "zeitraum",
      "leistungszeitraum",
      "abrechnungszeitraum",
      "periode",
      "du",
      "au",
      "dal",
      "al",
      "van",
      "tot",
      // not `billing` (a bill's `Billing date` is its issue date; `Billing period` says `period`)
      "service",
      "servicio"
    ]
  ],
  [
    "delivery",
    [
      ...["entrega", "envio", "delivery", "ship", "shipped", "shipping", "liefer", "lieferdatum", "versand"],
      // `Liefertermin`, `Liefertag`: the day goods are to be delivered
      ...["liefertermin", "liefertag"],
      // `Leistungsdatum`: the date of the service, a delivery's
      "leistungsdatum",
      ...["livraison", "consegna", "spedizione", "levering", "verzending", "leverdatum"],
      // `Livré le`, `Geliefert am`, `Delivered on`, `Entregado el`, `Consegnato il`, `Entregue em`, `Geleverd op`
      ...["livre", "livree", "geliefert", "delivered", "entregado", "consegnato", "entregue", "geleverd"],
      // Polish: `Data sprzedaży` (the sale's, or delivery's, date printed beside the issue date), `Data dostawy`
      ...["sprzedazy", "dostawy"]
    ]
  ],
  ["order", ["pedido", "order", "bestell", "bestelldatum", "commande", "ordine", "encomenda", "bestelling", "orden"]],
  ["other", OTHER_DATE_GROUPS.flat()],
  [
    "issue",
    [
      "fecha",
      "emision",
      "emitido",
      "expedicion",
      "date",
      "dated",
      "issued",
      "datum",
      "rechnungsdatum",
      "belegdatum",
      "ausstellungsdatum",
      "data",
      "emissione",
      "emissao",
      "factuurdatum",
      "invoice",
      "factura",
      "rechnung",
      "facture",
      "fattura",
      "fatura",
      "factuur",
      // Polish: `Data wystawienia` (issued), `Faktura VAT`
      "wystawienia",
      "faktura"
    ]
  ]
]

/**
 * Nouns of the documents whose number a field asks for. A number label is one of them with a number word
 * (`Factura Nº`, `Invoice No`, `Nº de factura`) or a compound that says both (`Rechnungsnummer`).
 */
export const DOCUMENT_NOUNS: ReadonlyArray<string> = [
  "factura",
  "fact",
  "comprobante",
  "comp",
  "cpbte",
  "ticket",
  "recibo",
  "talao",
  "scontrino",
  "ricevuta",
  "kassenbon",
  "kassabon",
  "recu",
  "boleta",
  "nota",
  "invoice",
  "inv",
  "receipt",
  "bill",
  "doc",
  "document",
  "documento",
  "rechnung",
  "beleg",
  "bon",
  "quittung",
  "facture",
  "fattura",
  "fatura",
  // pt (br): a nota fiscal's, electronic and the consumer's (`NF-e nº`, `NFC-e nº 000012345`)
  ...["nf", "nfe", "nfc", "nfce"],
  "factuur",
  // Polish: `Faktura VAT nr`, `Nr faktury`, `Rachunek nr`, `Paragon nr`
  "faktura",
  "faktury",
  "rachunek",
  "paragon",
  "bonnr",
  "transaction",
  "trans",
  "folio",
  "serie",
  // a till's sales slip (`SLIP NO`, `SLIP:` on Malaysian receipts)
  "slip",
  // abbreviations: Re.-Nr. and Rg.-Nr. (Rechnung), FS/FT n.º (fatura simplificada, fatura), N. op. (operazione)
  "re",
  "rg",
  "fs",
  "ft",
  "op",
  "operacion",
  "operacao",
  "operazione",
  "transaccion",
  "transacao",
  "transazione",
  "transactie",
  "vorgang",
  // credit notes: `Gutschrift Nr.`, `Avoir n°`, `Credit Note No.`, `Creditnota nr.` (`Nota de crédito Nº` has `nota`)
  "gutschrift",
  "avoir",
  "note",
  "creditnota",
  "creditfactuur",
  // quotes: `Presupuesto Nº`, `Quote No`, `Angebot Nr.`, `Devis n°`, `Preventivo n.`, `Orçamento nº`, `Offerte nr.`
  ...["presupuesto", "cotizacion", "quote", "quotation", "estimate", "angebot", "devis", "preventivo", "orcamento"],
  "offerte"
]

/** One-word labels that say "document number" on their own. */
export const NUMBER_COMPOUNDS: ReadonlyArray<string> = [
  "rechnungsnummer",
  "rechnungsnr",
  "rechnungs",
  "belegnummer",
  "belegnr",
  "bonnummer",
  "factuurnummer",
  "factuurnr",
  "numfactura",
  "invoiceno",
  "invno",
  "folio",
  "transactienr",
  "transactienummer",
  "bonnr",
  "kassenbonnr",
  ...["kassenbonnummer", "quittungsnummer", "quittungsnr"]
]

/** Number words, after folding and `canonical` (which turns nº, nro, num, number, nr, # into `no`). */
export const NUMBER_WORDS: ReadonlyArray<string> = ["no", "nummer", "numero", "n", "nr", "ref", "id"]

/** Words that make a number label name another document's number (an order, a customer, a delivery). */
export const OTHER_NUMBER_WORDS: ReadonlyArray<string> = [
  "orden",
  "order",
  // a purchase order (`PO Number`, `P.O. No.`)
  "po",
  "pedido",
  "bestell",
  "bestellung",
  "commande",
  "ordine",
  "encomenda",
  "bestelling",
  "cliente",
  "customer",
  "client",
  "kunde",
  "kunden",
  "klant",
  "socio",
  "member",
  "cuenta",
  "account",
  "konto",
  "compte",
  "conto",
  "conta",
  "rekening",
  "remito",
  "delivery",
  "lieferschein",
  "livraison",
  // delivery notes: `Albarán nº`, `DDT n.`, `Guia de remessa`, `Pakbon` on an invoice are another document's
  "albaran",
  "bolla",
  "ddt",
  "remessa",
  "pakbon",
  "leverbon",
  "tel",
  "telefono",
  "phone",
  "fax",
  "cae",
  "cai",
  "afip",
  "caja",
  "kasse",
  "terminal",
  "pos",
  "tpv",
  "mesa",
  "table",
  "tisch",
  "page",
  "pagina",
  "seite",
  // a German till's security module counts its own transactions (`TSE-Transaktion: 12345`): no receipt's number
  "tse"
]

/**
 * The other documents' nouns of `OTHER_NUMBER_WORDS` that name one thing across the languages: a field that names
 * one (`numero_pedido`, `Kundennummer`) is labelled by the others' numbers too (`PO Number`, `Bestellung Nr.`).
 */
export const OTHER_NUMBER_GROUPS: ReadonlyArray<ReadonlyArray<string>> = [
  ["orden", "order", "po", "pedido", "bestell", "bestellung", "commande", "ordine", "encomenda", "bestelling"],
  ["cliente", "customer", "client", "kunde", "kunden", "klant"],
  ["remito", "delivery", "lieferschein", "livraison", "albaran", "bolla", "ddt", "remessa", "pakbon", "leverbon"]
]

/** Legal forms of companies (folded, dots and spaces removed): evidence that a line names a business. */
export const LEGAL_FORMS: ReadonlyArray<string> = [
  "sa",
  "sau",
  "sl",
  "slu",
  "srl",
  "sas",
  "scoop",
  "coop",
  "sdnbhd",
  "bhd",
  "sb",
  "gmbh",
  "ag",
  "ug",
  "kg",
  "ek",
  "gbr",
  "ohg",
  "sarl",
  "eurl",
  "snc",
  "spa",
  "sapa",
  "srls",
  "lda",
  "ltda",
  "bv",
  "nv",
  "vof",
  "ltd",
  "limited",
  "llc",
  "llp",
  "inc",
  "corp",
  "plc",
  "co",
  // ms: a limited liability partnership
  "plt",
  // pl: `Sp. z o.o.` (a limited company), `Sp.j.` (a general partnership), `Sp.k.` (a limited partnership)
  "spzoo",
  "spj",
  "spk",
  // es: a joint ownership (`C.B.`); fr: a one-person SAS; be: the former SPRL and BVBA; at: GesmbH; de: KGaA
  "cb",
  "sasu",
  "sprl",
  "bvba",
  "gesmbh",
  "kgaa",
  // pe: `S.A.C.`, `S.A.A.`; pe, cl: `E.I.R.L.`
  "sac",
  "saa",
  "eirl",
  // ar: a partnership with no articles (`Gómez Hnos. S.H.`, sociedad de hecho)
  "sh"
]

/**
 * Legal forms that are common words or syllables folded (`AB`, `SE`, `AS`): taken only as printed, in capitals or
 * their own case, closing a name (`Stockholm Design AB`, `Berlin Software SE`, `Oslo Trading AS`, `Nordic Oy`).
 */
export const CLOSING_LEGAL_FORMS: ReadonlyArray<string> = ["AB", "SE", "AS", "ASA", "Oy", "Oyj", "ApS", "A/S"]

/**
 * Shop and trade words (folded) that mark a letterhead line as a business name when no legal form does: kinds of
 * shops and trades in es, en, de, fr, it, pt and nl, and the Malay words of Malaysian receipts.
 */
export const SHOP_WORDS: ReadonlyArray<string> = [
  // es
  "tienda",
  "supermercado",
  "supermercados",
  "hipermercado",
  "hiper",
  "mercado",
  "panaderia",
  "pasteleria",
  "carniceria",
  "pescaderia",
  "fruteria",
  "ferreteria",
  "papeleria",
  "libreria",
  "farmacia",
  "drogueria",
  "perfumeria",
  "floristeria",
  "restaurante",
  "taberna",
  "meson",
  "cerveceria",
  "asador",
  "marisqueria",
  "churreria",
  "heladeria",
  "hostal",
  "cafeteria",
  "comercial",
  "distribuciones",
  "suministros",
  "servicios",
  "almacenes",
  "bazar",
  "optica",
  "zapateria",
  "joyeria",
  "peluqueria",
  "alimentacion",
  // en
  "store",
  "stores",
  "shop",
  "mart",
  "market",
  "supermarket",
  "supermarkets",
  "bakery",
  "bakeries",
  "butcher",
  "grocery",
  "grocer",
  "pharmacy",
  "chemist",
  "florist",
  "bookstore",
  "bookstores",
  "bookshop",
  "stationery",
  "hardware",
  "restaurant",
  "tavern",
  "pub",
  "inn",
  "grill",
  "steakhouse",
  "diner",
  "eatery",
  "brewery",
  "takeaway",
  "cafe",
  "hotel",
  "trading",
  "traders",
  "enterprise",
  "enterprises",
  "marketing",
  "telecommunications",
  "handicraft",
  "tailoring",
  "boutique",
  "electrical",
  "electronics",
  "optical",
  "clinic",
  "industries",
  "supplies",
  "motors",
  "workshop",
  "furniture",
  "printing",
  "laundry",
  "bistro",
  "canteen",
  "minimart",
  "hypermarket",
  "superstore",
  "emporium",
  "jewellery",
  "jewelry",
  "salon",
  "tyre",
  "tyres",
  "engineering",
  "pizzeria",
  "deli",
  "kitchen",
  "coffee",
  "foods",
  // de
  "backerei",
  "baeckerei",
  "metzgerei",
  "fleischerei",
  "konditorei",
  "apotheke",
  "drogerie",
  "buchhandlung",
  "supermarkt",
  "markt",
  "baumarkt",
  "handel",
  "getranke",
  "eisenwaren",
  "schreibwaren",
  "gaststatte",
  "gasthaus",
  "gasthof",
  "wirtshaus",
  "brauhaus",
  "imbiss",
  "weinstube",
  "kiosk",
  "optik",
  "friseur",
  "tankstelle",
  "autohaus",
  // fr
  "boulangerie",
  "patisserie",
  "boucherie",
  "charcuterie",
  "epicerie",
  "pharmacie",
  "librairie",
  "papeterie",
  "fleuriste",
  "quincaillerie",
  "bricolage",
  "supermarche",
  "marche",
  "hypermarche",
  "primeur",
  "traiteur",
  "brasserie",
  "auberge",
  "creperie",
  "bistrot",
  "droguerie",
  "opticien",
  // it
  "panetteria",
  "panificio",
  "pasticceria",
  "macelleria",
  "alimentari",
  "cartoleria",
  "fioraio",
  "ferramenta",
  "supermercato",
  "mercato",
  "servizi",
  "minimarket",
  "ipermercato",
  "ristorante",
  "trattoria",
  "osteria",
  "taverna",
  "enoteca",
  "gelateria",
  "locanda",
  "albergo",
  "caffe",
  "rosticceria",
  "tabaccheria",
  "drogheria",
  "salumeria",
  "ottica",
  // a greengrocer (`FRUTTA E VERDURA …`)
  "frutta",
  "ortofrutta",
  // pt
  "padaria",
  "tasca",
  "cervejaria",
  "churrasqueira",
  "marisqueira",
  "pastelaria",
  "talho",
  "mercearia",
  "servicos",
  "frutaria",
  "minimercado",
  "livraria",
  "florista",
  "drogaria",
  "ferragens",
  // nl
  "bakkerij",
  "eetcafe",
  "herberg",
  "cafetaria",
  "snackbar",
  "frituur",
  "slagerij",
  "apotheek",
  "drogisterij",
  "boekhandel",
  "bloemist",
  "bouwmarkt",
  "ijzerwaren",
  "winkel",
  "slijterij",
  "groothandel",
  "handelsonderneming",
  // ms
  "perniagaan",
  "syarikat",
  "restoran",
  "kedai",
  // a grocer's, a bakery, a coffee shop
  "runcit",
  "bakeri",
  "kopitiam",
  // a shop (nl, ms, id)
  "toko",
  // a stall, a supermarket, a clinic, a pharmacy
  "gerai",
  "pasaraya",
  "klinik",
  "farmasi",
  // professional firms: lawyers, notaries, architects, accountants, advisers, and the practice or office they are
  ...["abogados", "asesoria", "gestoria", "arquitectos", "consultores", "despacho", "notaria"],
  ...["solicitors", "attorneys", "architects", "accountants", "consultants", "consulting", "associates"],
  ...["kanzlei", "rechtsanwalte", "notariat", "architekten", "steuerberater", "steuerberatung", "ingenieurburo"],
  ...["cabinet", "avocats", "notaires", "architectes", "expertise"],
  ...["avvocati", "architetti", "commercialisti", "notaio"],
  ...["advogados", "arquitetos", "contabilidade", "consultoria"],
  ...["advocaten", "notarissen", "architecten", "adviesbureau", "accountancy"],
  // crafts: joiners, carpenters, plumbers, locksmiths, roofers, masons
  ...["schreinerei", "tischlerei", "zimmerei", "schlosserei", "dachdeckerei", "malerbetrieb", "sanitar"],
  ...["plomberie", "menuiserie", "maconnerie", "serrurerie", "ebenisterie", "charpente"],
  ...["carpinteria", "fontaneria", "cerrajeria", "falegnameria", "idraulica", "carpintaria", "canalizacao"],
  ...["timmerbedrijf", "loodgieter", "schilder"],
  // health practices: clinics, dental and medical practices, physiotherapists
  ...["clinica", "policlinica", "consultorio", "dental", "fisioterapia", "odontologia"],
  ...["surgery", "practice", "physiotherapy"],
  ...["praxis", "arztpraxis", "zahnarztpraxis", "physiotherapie"],
  ...["clinique", "dentaire", "kinesitherapie"],
  ...["dentistico", "poliambulatorio", "ambulatorio", "dentaria"],
  ...["praktijk", "tandartspraktijk", "huisartsenpraktijk", "fysiotherapie"]
]

/** Words of a tax status or a tax registration, never a business name (Argentina's IVA conditions and the like). */
export const TAX_STATUS_WORDS: ReadonlyArray<string> = [
  "responsable",
  "inscripto",
  "inscrito",
  "monotributo",
  "monotributista",
  "exento",
  "consumidor",
  "condicion",
  "iva",
  "ingresos",
  "brutos",
  "actividades",
  "cuit",
  "cif",
  "nif",
  "vat",
  "gst",
  "ust",
  "steuernummer",
  "ustid",
  "siret",
  "siren",
  "tva",
  "piva",
  "btw",
  "kvk",
  "regime",
  "regimen"
]

/** Words of an address line (a street, a unit, a postcode word), never a business name. */
export const ADDRESS_WORDS: ReadonlyArray<string> = [
  "calle",
  "avda",
  "avenida",
  "av",
  "plaza",
  "pza",
  "paseo",
  "camino",
  "carretera",
  "ctra",
  "poligono",
  "piso",
  "jalan",
  "jln",
  "lorong",
  "taman",
  "lot",
  "street",
  "st",
  "road",
  "rd",
  "avenue",
  "ave",
  "lane",
  "suite",
  "floor",
  // folding keeps `ß`: `Straße` and `Strasse` both
  "strasse",
  "straße",
  "str",
  "weg",
  "platz",
  "allee",
  "gasse",
  "ring",
  "damm",
  "rue",
  "boulevard",
  "bd",
  "chemin",
  "place",
  "impasse",
  "quai",
  "route",
  "via",
  "viale",
  "piazza",
  "corso",
  "rua",
  "praca",
  "travessa",
  "largo",
  "straat",
  "laan",
  "kade",
  "singel",
  "plein",
  "gracht",
  "postbus"
]

/**
 * States, federal territories and countries an address closes with, folded: where a postcode is not printed
 * (`NO.12,JALAN SS4C/5,PETALING JAYA / SELANGOR DARUL EHSAN`) they tell the block ends there.
 */
export const ADDRESS_REGIONS: ReadonlyArray<string> = [
  ...["johor", "kedah", "kelantan", "melaka", "malacca", "negeri sembilan", "pahang", "penang", "pulau pinang"],
  ...["perak", "perlis", "sabah", "sarawak", "selangor", "terengganu", "kuala lumpur", "putrajaya", "labuan"],
  ...["darul ehsan", "darul takzim", "darul makmur", "darul aman", "darul naim", "darul ridzuan", "darul khusus"],
  ...["malaysia", "singapore", "espana", "spain", "deutschland", "germany", "france", "italia", "italy"],
  ...["portugal", "nederland", "netherlands", "argentina", "mexico", "united kingdom", "uk", "usa"]
]

/**
 * Words of the lines that close a letterhead's address (contacts, registers, bank), folded: with the tax id words
 * (`TAX_ID_WORDS`, but `st` a street's), a line that has one is no longer the address.
 */
export const CONTACT_WORDS: ReadonlyArray<string> = [
  ...["tel", "telf", "tlf", "telefon", "telefono", "telefoon", "telephone", "telefone", "phone", "fax", "mobile"],
  ...["mobil", "handy", "movil", "telemovel", "gsm", "hp", "email", "mail", "web", "internet", "www", "http"],
  ...["https", "iban", "bic", "swift", "hrb", "hra", "amtsgericht", "steuernummer", "steuernr", "stnr", "nipc"],
  ...["rcs"]
]

/** Endings of street names written as one word (Uferweg, Hauptstraße, Dijkstralaan), never a business name. */
export const ADDRESS_SUFFIXES: ReadonlyArray<string> = [
  ...["strasse", "straße", "str", "weg", "platz", "allee", "gasse", "damm", "ufer"],
  ...["straat", "laan", "plein", "gracht", "kade", "steeg", "dijk"]
]

/**
 * Month names and abbreviations (folded) in the seven languages, as dates print them (core's `Months`); `out` (pt:
 * outubro) is left out, an English word too (`patterns.ts` reads it only between a day and a year).
 */
export const MONTH_WORDS: ReadonlyArray<string> = Months.byMonth.flat().filter((name) => name !== "out")

/** Words of a document's title (folded): a cell holding one is the title, never the issuer's name. */
export const DOCUMENT_TITLES: ReadonlyArray<string> = [
  ...["factura", "facturas", "recibo", "ticket", "albaran", "presupuesto", "proforma", "comprobante"],
  // ar: a delivery note, a quote, a settlement; cl, pe: a sale's receipt (`Boleta de venta electrónica`)
  ...["remito", "cotizacion", "liquidacion", "boleta"],
  ...["invoice", "receipt", "quotation", "estimate", "statement", "confirmation"],
  ...["rechnung", "verkaufsrechnung", "quittung", "kassenbon", "kassenbeleg", "gutschrift", "lieferschein"],
  ...["angebot", "auftragsbestatigung"],
  ...["facture", "recu", "devis"],
  ...["fattura", "ricevuta", "scontrino", "preventivo"],
  ...["fatura", "talao", "orcamento"],
  ...["factuur", "verkoopfactuur", "kassabon", "bonnetje", "kwitantie", "offerte", "creditnota"],
  // pl
  ...["faktura", "rachunek", "paragon"]
]

/** Copy marks printed with a document's title (folded): `FACTURA ORIGINAL`, `RECHNUNG (KOPIE)`, `DUPLICATE`. */
export const COPY_MARKS: ReadonlyArray<string> = [
  ...["original", "duplicado", "triplicado", "copia", "copy", "duplicate", "duplicata", "copie"],
  ...["originale", "kopie", "duplikat", "duplicaat", "origineel", "oryginal", "kopia"]
]

/**
 * The kinds of invoice a title names (folded): `Factura completa`, `Factura simplificada`, `Simplified invoice`,
 * `Factura electrónica`, `Fattura elettronica`, `Boleta de venta electrónica` (Peru's, of a sale).
 */
export const TITLE_KINDS: ReadonlyArray<string> = [
  ...["completa", "simplificada", "simplified", "de venta"],
  ...["electronica", "electronic", "electronique", "elettronica", "eletronica"]
]

/**
 * Words that address the reader, the document's recipient (folded): a label they open is the recipient's (`Ihre
 * USt-IdNr.`, `Your VAT number`, `Votre n° TVA`, `Uw btw-nummer`, `Su NIF`, `Su referencia`, `Vostra P.IVA`).
 */
export const READER_WORDS: ReadonlyArray<string> = [
  ...["ihre", "ihr", "your", "votre", "vos", "uw", "su", "sus", "vostra", "vostro", "seu", "sua"]
]

/**
 * Words a field's name or description names a party with (folded): the recipient's (`NIF del cliente`, `Customer
 * VAT number`), the issuer's (`CIF del emisor`, `Supplier tax id`) or the delivery's (`Delivery address`).
 */
export const PARTY_WORDS: Readonly<Record<"recipient" | "issuer" | "delivery", ReadonlyArray<string>>> = {
  delivery: [
    ...["delivery", "shipping", "ship", "entrega", "envio", "lieferung", "lieferadresse", "lieferanschrift"],
    ...["livraison", "consegna", "spedizione", "levering", "afleveradres", "leveringsadres"]
  ],
  recipient: [
    ...["cliente", "receptor", "destinatario", "comprador", "adquirente", "customer", "buyer", "recipient", "client"],
    ...["kunde", "kunden", "empfanger", "acheteur", "acquirente", "committente", "klant", "afnemer", "nabywca"],
    // the billing's (`Adresse de facturation`, `Billing address`, `Rechnungsadresse`): the customer's
    ...["facturation", "facturacion", "billing", "rechnungsadresse", "fatturazione", "faturacao", "factuuradres"]
  ],
  issuer: [
    ...["emisor", "proveedor", "vendedor", "issuer", "seller", "supplier", "vendor", "lieferant", "verkaufer"],
    ...["fournisseur", "vendeur", "emetteur", "fornitore", "cedente", "emitente", "fornecedor", "leverancier"],
    ...["verkoper", "sprzedawca", "wystawca", "rechnungssteller", "aussteller", "emittente"]
  ]
}

/** Labels over a delivery's block (folded phrases): `Ship To`, `Lieferadresse`, `Dirección de entrega`. */
export const DELIVERY_LABELS: ReadonlyArray<string> = [
  ...["ship to", "shipping address", "delivery address", "deliver to", "delivered to", "lieferadresse"],
  ...["lieferanschrift", "direccion de entrega", "direccion de envio", "enviar a", "adresse de livraison"],
  ...["livrer a", "indirizzo di consegna", "indirizzo di spedizione", "morada de entrega", "afleveradres"],
  ...["leveringsadres"]
]

/**
 * Courtesy titles before an addressee's name (folded phrases): a recipient's label even with the name right after it
 * on its line (`Spett.le Bianchi S.r.l.`, `Messrs. Smith & Co.`, `Herrn Max Meier`), as no business name opens with
 * one. The other recipient labels do so only alone or before a colon (`AN NUR ENTERPRISE` is a name).
 */
export const COURTESY_TITLES: ReadonlyArray<string> = [
  ...["spett le", "spettabile", "spett", "egregio", "egr", "gentile", "gent mo", "gent ma", "messrs", "herrn"],
  ...["senores", "sres", "exmo s sr s", "exmo sr", "exma sra", "exmos srs"]
]

/** Labels that open the recipient's block of an invoice (folded phrases): what follows is not the issuer. */
export const RECIPIENT_LABELS: ReadonlyArray<string> = [
  // es
  ...["facturar a", "facturado a", "cliente", "datos del cliente", "destinatario", "senor", "sr"],
  // en
  ...["bill to", "billed to", "invoice to", "sold to", "customer", "client", "to", "recipient"],
  ...["invoiced to", "buyer"],
  // de
  ...["rechnungsempfanger", "empfanger", "rechnungsadresse", "kunde", "an", "rechnung an"],
  // a letter's window: `Firma`, `Herr`, `Frau` alone over the addressee
  ...["firma", "herr", "frau"],
  // a delivery's block
  ...DELIVERY_LABELS,
  // fr
  ...["facture a", "facturer a", "adresse de facturation", "destinataire", "client", "a l attention de"],
  // it
  ...["cliente", "destinatario", "intestatario", "fatturare a"],
  // it: `Spett.le` (spettabile), the courtesy a letter's addressee is written to
  ...["spett le", "spettabile", "spett"],
  // pt
  ...["faturar a", "faturado a", "cliente", "destinatario", "exmo s", "exmos", "adquirente"],
  // nl
  ...["aan", "afnemer", "klant", "factuuradres", "geadresseerde", "ter attentie van", "factuur aan"],
  // `Spett.le`, `Messrs.`, `Herrn`, `Señores`, `Exmo.(s) Sr.(s)`: an addressee's courtesy title
  ...COURTESY_TITLES,
  // pl: the buyer, the recipient
  ...["nabywca", "odbiorca"]
]

/**
 * Labels over the seller's block where it is printed beside the buyer's (folded phrases): a label, never the
 * seller's name.
 */
export const SELLER_LABELS: ReadonlyArray<string> = [
  ...["emisor", "vendedor", "proveedor", "datos del emisor", "emitido por"],
  ...["from", "seller", "supplier", "vendor", "sold by", "issued by"],
  ...["verkaufer", "lieferant", "absender", "rechnungssteller", "leistungserbringer"],
  ...["emetteur", "vendeur", "fournisseur", "prestataire"],
  ...["fornitore", "cedente", "cedente prestatore", "venditore", "emittente"],
  ...["fornecedor", "emitente", "prestador"],
  ...["verkoper", "leverancier", "afzender", "van"],
  ...["sprzedawca", "wystawca"]
]

/**
 * Words of a footer's legal line (folded phrases): the registered office, the share capital, the register. The
 * line above such a line is where a business prints its name when its letterhead is a logo.
 */
export const REGISTER_WORDS: ReadonlyArray<string> = [
  ...["domicilio social", "domicilio fiscal", "registro mercantil", "inscrita", "inscrito"],
  ...["registered office", "registered in", "company no", "company number", "company registration"],
  ...["sitz der gesellschaft", "handelsregister", "registergericht", "amtsgericht", "hrb", "hra"],
  ...["siege social", "capital de", "rcs", "siret"],
  // it: `P.IVA 01234567890`, `Partita IVA`, which every Italian business's footer prints
  ...["sede legale", "capitale sociale", "registro imprese", "rea", "p.iva", "partita iva"],
  ...["capital social", "nipc", "matricula"],
  ...["statutair gevestigd", "kvk", "vestigingsadres"]
]

/** Words a field's name asks for a name with (`customer_name`, `Nombre del cliente`, a line's `nombre`), folded. */
export const NAME_WORDS: ReadonlyArray<string> = ["name", "nombre", "nom", "nome", "naam", "razon"]

/** A kind of business: the phrases a field names it with, and the words its name shows (folded). */
export interface BusinessKind {
  readonly asked: ReadonlyArray<string>
  readonly named: ReadonlyArray<string>
}

/**
 * Kinds of business a field may name for the one that issues the document (`banco`, `Nombre del hotel`,
 * `compania_aseguradora`, `estacion_servicio`): its name is the issuer's, read as a company's, where the letterhead
 * shows the kind (`HOTEL MIRAMAR PLAYA S.A.`, `THE RED LION PUB LTD`, `ARAL Tankstelle`). A letterhead of another
 * kind is none of it: an expense skill's `hotel` on a fuel receipt, `banco` on an invoice (its payment details').
 */
export const BUSINESS_KINDS: ReadonlyArray<BusinessKind> = [
  {
    asked: ["banco", "entidad bancaria", "bank", "banque", "banca"],
    named: [
      ...["banco", "bank", "banque", "banca", "caixa", "caja", "kutxa", "kutxabank", "sparkasse", "volksbank"],
      ...["raiffeisenbank", "bancaria", "bankinter", "unicaja", "ibercaja", "abanca", "cajamar"]
    ]
  },
  {
    asked: ["hotel", "hostal", "albergo"],
    named: [
      ...["hotel", "hostal", "hostel", "albergo", "pension", "motel", "gasthof", "resort", "aparthotel", "parador"],
      ...["posada", "inn", "lodge", "hoteles", "hotels"]
    ]
  },
  {
    asked: ["restaurante", "restaurant", "ristorante", "gaststatte"],
    named: [
      ...["restaurante", "restaurant", "ristorante", "trattoria", "osteria", "pizzeria", "bar", "cafe", "cafeteria"],
      ...["pub", "gasthaus", "gaststatte", "brasserie", "bistro", "bistrot", "taberna", "meson", "tasca", "eetcafe"],
      ...["grill", "steakhouse", "diner", "asador", "marisqueria", "cerveceria", "wirtshaus"]
    ]
  },
  {
    asked: ["farmacia", "pharmacy", "apotheke", "pharmacie", "apotheek"],
    named: ["farmacia", "pharmacy", "apotheke", "pharmacie", "apotheek", "chemist", "parafarmacia", "drogaria"]
  },
  {
    asked: [
      ...["aseguradora", "insurer", "insurance company", "versicherer", "versicherung", "assureur", "assicurazione"],
      ...["seguradora", "verzekeraar"]
    ],
    named: [
      ...["seguros", "aseguradora", "insurance", "assurance", "assurances", "versicherung", "versicherungen"],
      ...["assicurazioni", "assicurazione", "seguradora", "verzekeringen", "verzekering", "mutua", "mutuelle"]
    ]
  },
  {
    asked: [
      ...["gasolinera", "estacion de servicio", "petrol station", "gas station", "service station"],
      ...["filling station", "tankstelle", "station service", "stazione di servizio", "posto de combustivel"],
      "tankstation"
    ],
    named: [
      ...["gasolinera", "estacion", "servicio", "station", "tankstelle", "stazione", "posto", "combustivel"],
      ...["tankstation", "petrol", "fuel", "carburant", "carburants", "gasolineras"]
    ]
  },
  {
    asked: ["supermercado", "supermarket", "supermarkt", "supermarche", "supermercato"],
    named: [
      ...["supermercado", "supermercados", "supermarket", "supermarkt", "supermarche", "supermercato"],
      ...["hipermercado", "hypermarket", "market", "mercado", "mart", "markt", "marche", "mercato"]
    ]
  },
  {
    asked: [
      ...["clinica", "hospital", "clinic", "klinik", "krankenhaus", "clinique", "hopital", "ospedale", "kliniek"],
      "ziekenhuis"
    ],
    named: [
      ...["clinica", "clinic", "klinik", "clinique", "kliniek", "hospital", "krankenhaus", "hopital", "ospedale"],
      ...["ziekenhuis", "medical", "medico", "medica", "policlinica", "praxis", "centro", "hospitalario"]
    ]
  },
  {
    asked: ["taller", "garage", "werkstatt", "officina"],
    named: ["taller", "talleres", "garage", "werkstatt", "officina", "autohaus", "motors", "automocion", "auto"]
  },
  {
    asked: ["laboratorio", "laboratory", "laboratoire", "laboratorium"],
    named: ["laboratorio", "laboratory", "labor", "laboratoire", "laboratorium", "lab", "laboratorios"]
  },
  { asked: ["academia"], named: ["academia", "academy", "akademie", "escuela", "school", "schule", "ecole"] }
]

/** Words a field may name a business with besides its kind (`compania_aseguradora`, `entidad`), folded. */
export const BUSINESS_COMPANIONS: ReadonlyArray<string> = [
  ...["compania", "entidad", "empresa", "company", "gesellschaft", "compagnie", "compagnia", "companhia"],
  ...["maatschappij", "de", "del", "la", "el", "the", "of", "der", "des", "du", "di", "da", "do", "van", "het"]
]

/**
 * Words for the party that sells (folded): a supplier field's (`proveedor`, `Vendor name`), whom a purchase order
 * addresses and whose label there names no issuer.
 */
export const SUPPLIER_WORDS: ReadonlyArray<string> = [
  ...["proveedor", "suministrador", "supplier", "vendor", "lieferant", "fournisseur", "fornitore", "fornecedor"],
  ...["leverancier", "seller", "vendedor", "verkaufer", "vendeur", "venditore", "verkoper", "merchant"]
]

/**
 * The words documents print for what a skill's own fields commonly ask, across the seven languages (folded
 * phrases, one group per thing): a field that names one (`habitacion`, `Matrícula del vehículo`, `saldo_final`) is
 * also labelled by the others (`Room No`, `Kennzeichen`, `Closing balance`), for a skill written in one language
 * reads documents printed in another. What a concept of its own labels (totals, dates, numbers, parties) is not
 * here.
 */
export const FIELD_WORDS_ACROSS: ReadonlyArray<ReadonlyArray<string>> = [
  // travel and stays: a room, the nights, a guest, a passenger, a booking's reference, a seat, a flight
  [
    ...["habitacion", "numero de habitacion", "room", "room no", "room number", "zimmer", "zimmer nr"],
    ...["zimmernummer", "chambre", "numero de chambre", "camera", "numero camera", "quarto", "kamer", "kamernummer"]
  ],
  [
    ...["noches", "numero de noches", "nights", "number of nights", "nachte", "ubernachtungen", "nuits"],
    ...["nuitees", "notti", "noites", "nachten", "overnachtingen"]
  ],
  [
    ...["huesped", "nombre del huesped", "guest", "guest name", "gast", "name des gastes", "ospite"],
    ...["nome ospite", "hospede", "nome do hospede"]
  ],
  [
    ...["pasajero", "nombre del pasajero", "passenger", "passenger name", "fahrgast", "reisender", "passager"],
    ...["passeggero", "passageiro", "passagier"]
  ],
  [
    ...["localizador", "localizador de reserva", "codigo de reserva", "booking reference", "booking ref"],
    ...["reservation number", "confirmation number", "buchungsnummer", "buchungscode", "reference de reservation"],
    ...["codice prenotazione", "numero prenotazione", "codigo da reserva", "boekingsnummer"],
    ...["reserveringsnummer", "pnr"]
  ],
  // where a journey starts and ends (`Origen`, `From`, `Von`; `Destino`, `To`, `Nach`)
  [
    ...["origen", "estacion de origen", "origin", "from", "departure station", "von", "abfahrtsbahnhof"],
    ...["origine", "gare de depart", "stazione di partenza", "origem"]
  ],
  [
    ...["destino", "estacion de destino", "destination", "to", "arrival station", "nach", "ziel", "zielbahnhof"],
    ...["gare d arrivee", "destinazione", "stazione di arrivo", "bestemming"]
  ],
  [...["asiento", "seat", "seat no", "sitzplatz", "siege", "place assise", "posto", "assento", "zitplaats"], "stoel"],
  [
    ...["numero de vuelo", "vuelo", "flight number", "flight no", "flight", "flugnummer", "flug", "numero de vol"],
    ...["numero volo", "volo", "numero do voo", "voo", "vluchtnummer", "vlucht"]
  ],
  // a vehicle: its plate, its mileage, the fuel put in it
  [
    ...["matricula", "vehicle registration", "registration number", "registration", "reg no", "license plate"],
    ...["licence plate", "number plate", "kennzeichen", "amtliches kennzeichen", "immatriculation", "targa"],
    ...["placa", "kenteken"]
  ],
  [
    ...["kilometros", "kilometraje", "km", "kms", "mileage", "odometer", "kilometerstand", "km stand"],
    ...["kilometrage", "chilometraggio", "chilometri", "quilometragem", "quilometros"]
  ],
  ["litros", "litres", "liters", "litre", "liter", "litri", "litro", "volume", "volumen"],
  // insurance: the policy's number, its holder, the insured, the premium
  [
    ...["numero de poliza", "poliza", "policy number", "policy no", "policy", "versicherungsnummer"],
    ...["versicherungsschein nr", "numero de police", "police", "numero di polizza", "polizza"],
    ...["numero da apolice", "apolice", "polisnummer", "polis"]
  ],
  [
    ...["tomador", "tomador del seguro", "policyholder", "policy holder", "versicherungsnehmer", "souscripteur"],
    ...["preneur d assurance", "contraente", "verzekeringnemer"]
  ],
  ["asegurado", "insured", "versicherte person", "assure", "assicurato", "segurado", "verzekerde"],
  [
    ...["prima", "prima total", "premium", "annual premium", "total premium", "pramie", "jahresbeitrag"],
    ...["prime", "prime annuelle", "premio", "premio annuo", "premie"]
  ],
  // a bank account: its holder, its balances
  [
    ...["titular", "titular de la cuenta", "account holder", "holder", "kontoinhaber", "inhaber", "titulaire"],
    ...["titulaire du compte", "intestatario", "titolare", "rekeninghouder"]
  ],
  [
    ...["saldo final", "closing balance", "final balance", "ending balance", "new balance", "endsaldo"],
    ...["neuer saldo", "solde final", "nouveau solde", "saldo finale", "eindsaldo", "nieuw saldo"]
  ],
  [
    ...["saldo inicial", "saldo anterior", "opening balance", "previous balance", "balance brought forward"],
    ...["anfangssaldo", "alter saldo", "solde initial", "solde precedent", "ancien solde", "saldo iniziale"],
    ...["saldo precedente", "beginsaldo", "vorig saldo"]
  ],
  // a restaurant's table, its diners, the tip, who served
  ["mesa", "table", "tisch", "tavolo", "tafel"],
  ["comensales", "cubiertos", "covers", "guests", "pax", "gedecke", "personen", "couverts", "coperti", "pessoas"],
  [
    ...["camarero", "camarera", "mesero", "atendido por", "le atendio", "waiter", "waitress", "server", "served by"],
    ...["bedienung", "kellner", "serveur", "serveuse", "cameriere", "empregado de mesa", "bediening", "ober"]
  ],
  ["propina", "tip", "gratuity", "trinkgeld", "pourboire", "mancia", "gorjeta", "fooi"],
  [
    ...["cajero", "atendido por", "le atendio", "cashier", "served by", "kassierer", "bediener", "caissier"],
    ...["cassiere", "operador", "kassier"]
  ],
  // goods sent: parcels and weight
  ["bultos", "packages", "parcels", "pakete", "colis", "colli", "volumi", "volumes", "pakketten"],
  ["peso", "weight", "gewicht", "poids"],
  // a contract's and a customer's numbers
  [
    ...["numero de contrato", "contrato", "contract number", "contract no", "vertragsnummer", "numero de contrat"],
    ...["numero contratto", "numero do contrato", "contractnummer"]
  ],
  [
    ...["numero de cliente", "codigo de cliente", "customer number", "customer no", "customer id"],
    ...["kundennummer", "kunden nr", "kundennr", "numero client", "code client", "codice cliente"],
    ...["numero do cliente", "klantnummer"]
  ],
  // a fine: its case's number, the offence
  [
    ...["expediente", "numero de expediente", "case number", "file number", "aktenzeichen"],
    ...["numero de dossier", "numero pratica", "numero do processo", "dossiernummer"]
  ],
  [
    ...["infraccion", "hecho denunciado", "offence", "offense", "violation", "contravention", "tatvorwurf"],
    "infraction",
    ...["infrazione", "infracao", "overtreding"]
  ],
  [
    ...["importe de la multa", "multa", "sancion", "penalty", "penalty charge", "fine", "fine amount", "bussgeld"],
    ...["verwarnungsgeld", "amende", "montant de l amende", "sanzione", "importo della sanzione", "coima", "boete"]
  ],
  // a payslip: the employee, the period, the gross pay, the deductions, the net pay
  [
    ...["trabajador", "empleado", "employee", "employee name", "worker", "arbeitnehmer", "mitarbeiter", "salarie"],
    ...["dipendente", "lavoratore", "trabalhador", "werknemer"]
  ],
  [
    ...["periodo", "periodo de liquidacion", "period", "pay period", "billing period", "abrechnungszeitraum"],
    ...["zeitraum", "periode de paie", "periodo di paga", "periodo de faturacao", "periode"]
  ],
  [
    ...["total devengado", "salario bruto", "bruto", "gross pay", "gross salary", "gross earnings", "bruttolohn"],
    ...["bruttogehalt", "gesamtbrutto", "salaire brut", "retribuzione lorda", "totale lordo", "vencimento bruto"],
    "brutoloon"
  ],
  [
    ...["total a deducir", "deducciones", "total deductions", "deductions", "gesamtabzuge", "abzuge"],
    ...["total des retenues", "retenues", "totale trattenute", "trattenute", "total de descontos", "descontos"],
    ...["totaal inhoudingen", "inhoudingen"]
  ],
  [
    ...["liquido", "liquido a percibir", "liquido total a percibir", "neto a percibir", "salario neto", "net pay"],
    ...["net salary", "take home pay", "nettolohn", "nettogehalt", "auszahlungsbetrag", "net a payer"],
    ...["salaire net", "netto in busta", "netto a pagare", "liquido a receber", "vencimento liquido", "nettoloon"]
  ],
  // a utility's bill: the supply's address and point, the consumption
  [
    ...["direccion de suministro", "supply address", "service address", "lieferstelle", "verbrauchsstelle"],
    ...["abnahmestelle", "adresse de consommation", "indirizzo di fornitura", "morada de fornecimento"],
    "leveringsadres"
  ],
  [
    ...["cups", "codigo cups", "punto de suministro", "mpan", "mprn", "meter point", "supply number", "zahlpunkt"],
    ...["zahlpunktbezeichnung", "marktlokation", "pdl", "point de livraison", "pod", "codice pod", "cpe"],
    "aansluitnummer"
  ],
  ["consumo", "consumo total", "consumption", "usage", "verbrauch", "consommation", "verbruik"],
  // a medical document: the patient, the doctor
  [
    ...["paciente", "nombre del paciente", "patient", "patient name", "patientin", "paziente", "doente"],
    "patient naam"
  ],
  [
    ...["medico", "doctor", "physician", "arzt", "arztin", "behandelnder arzt", "medecin", "medico curante"],
    "huisarts"
  ],
  // whether it was paid, signed (a yes or a no)
  ["pagado", "paid", "bezahlt", "paye", "pagato", "betaald"],
  ["firmado", "signed", "unterschrieben", "signe", "firmato", "assinado", "ondertekend"],
  // how it was paid (`payment_method` on a Spanish invoice: `Forma de pago`)
  [
    ...["forma de pago", "metodo de pago", "medio de pago", "payment method", "method of payment", "zahlungsart"],
    ...["zahlungsweise", "mode de paiement", "mode de reglement", "modalita di pagamento", "metodo di pagamento"],
    ...["forma de pagamento", "meio de pagamento", "betaalwijze", "betaalmethode"]
  ],
  // an order's supplier, its payment and delivery terms
  SUPPLIER_WORDS,
  [
    ...["condiciones de pago", "payment terms", "terms of payment", "zahlungsbedingungen", "conditions de paiement"],
    ...["conditions de reglement", "condizioni di pagamento", "termini di pagamento", "condicoes de pagamento"],
    "betalingsvoorwaarden"
  ],
  [
    ...["incoterm", "incoterms", "condiciones de entrega", "delivery terms", "terms of delivery", "lieferbedingungen"],
    ...["conditions de livraison", "condizioni di consegna", "condicoes de entrega", "leveringsvoorwaarden"]
  ],
  // a lease: the landlord, the tenant, the property, the rent
  [
    ...["arrendador", "propietario", "landlord", "lessor", "vermieter", "bailleur", "locatore", "senhorio"],
    "verhuurder"
  ],
  [...["arrendatario", "inquilino", "tenant", "lessee", "mieter", "locataire", "conduttore", "locatario"], "huurder"],
  [
    ...["inmueble", "vivienda", "property", "property address", "mietobjekt", "objekt", "bien loue", "immobile"],
    ...["imovel", "huurobject"]
  ],
  [
    ...["renta", "renta mensual", "alquiler", "rent", "monthly rent", "miete", "monatsmiete", "kaltmiete", "loyer"],
    ...["loyer mensuel", "canone", "canone mensile", "renda", "huur", "huurprijs"]
  ],
  // a vehicle's identification number
  ["bastidor", "numero de bastidor", "vin", "chassis number", "fahrgestellnummer", "numero de chassis", "telaio"]
]

/** Yes and no in the seven languages (folded), as a yes-or-no field's value opens: core reads them as booleans. */
export const YES_NO_WORDS: ReadonlyArray<string> = [
  ...["si", "yes", "ja", "oui", "sim", "true", "verdadero", "wahr", "vrai", "vero", "verdadeiro", "waar", "x"],
  ...["no", "nein", "non", "nao", "nee", "false", "falso", "falsch", "faux", "onwaar"]
]

/** What a column of line items holds. */
export type ItemColumn = "description" | "quantity" | "price" | "amount"

/** Column headers of line items in the seven languages (folded phrases; a header cell takes its longest phrase). */
export const ITEM_COLUMNS: ReadonlyArray<readonly [ItemColumn, ReadonlyArray<string>]> = [
  [
    "description",
    [
      ...["descripcion", "concepto", "detalle", "producto", "articulo", "servicio", "producto servicio"],
      ...["description", "item", "details", "product", "service", "particulars"],
      ...["beschreibung", "bezeichnung", "artikel", "leistung", "artikelbezeichnung", "position"],
      ...["designation", "libelle", "article", "produit", "prestation"],
      ...["descrizione", "articolo", "prodotto", "servizio"],
      ...["descricao", "designacao", "artigo", "produto"],
      ...["omschrijving", "product", "dienst"]
    ]
  ],
  [
    "quantity",
    [
      ...["cantidad", "cant", "unidades", "uds", "ud", "unid"],
      ...["qty", "quantity", "units", "qnty"],
      ...["menge", "anzahl", "anz", "stk", "stuck"],
      ...["quantite", "qte", "qt"],
      ...["quantita", "qta", "q ta", "qty"],
      ...["quantidade", "qtd", "qtde"],
      ...["aantal", "aant", "stuks", "count"],
      // hours billed, a service's quantity
      ...["hours", "hrs", "horas", "stunden", "std", "heures", "ore", "uren"]
    ]
  ],
  [
    "price",
    [
      ...[
        "precio",
        "precio unit",
        "precio unitario",
        "p unit",
        "p unitario",
        "pr unit",
        "unitario",
        "pvp",
        "precio ud"
      ],
      ...["valor unitario", "valor unit", "vlr unit", "vl unit"],
      ...["unit price", "price", "rate", "unit cost", "s price", "price each", "u price"],
      ...["einzelpreis", "preis", "e preis", "stuckpreis", "ep"],
      ...["prix unitaire", "prix", "pu", "pu ht", "p u", "prix u"],
      ...["prezzo unitario", "prezzo", "prezzo unit", "p unit"],
      ...["preco unitario", "preco", "preco un", "preco unit", "p unit"],
      ...["prijs", "prijs per stuk", "stukprijs", "eenheidsprijs"],
      // an hour's rate
      ...["hourly rate", "tarifa", "stundensatz", "taux horaire", "tariffa", "tarief", "uurtarief"]
    ]
  ],
  [
    "amount",
    [
      ...["importe", "total", "subtotal", "importe linea", "total linea"],
      ...["amount", "line total", "total price", "net amount", "value"],
      ...["betrag", "summe", "gesamt", "gesamtpreis", "gesamtbetrag"],
      ...["montant", "prix total", "total ht", "montant ht"],
      ...["importo", "totale", "prezzo totale", "valore"],
      ...["valor", "montante", "total", "valor total"],
      ...["bedrag", "totaal", "regeltotaal"]
    ]
  ]
]

/** The languages whose writing the orthography rules know (`orthography.ts`); `en` also stands for Malay. */
export type Language = "es" | "en" | "de" | "fr" | "it" | "pt" | "nl"

/**
 * Words (folded) that invoices and receipts of one language print and the other six do not: a document's
 * language is the one whose words it prints most (`orthography.ts`). English receipts of Malaysia print Malay
 * address words, which write no marks either.
 */
export const LANGUAGE_WORDS: ReadonlyArray<readonly [Language, ReadonlyArray<string>]> = [
  [
    "es",
    [
      ...["factura", "fecha", "importe", "cantidad", "precio", "descripcion", "efectivo"],
      ...["gracias", "vencimiento", "domicilio", "calle", "unidades", "tienda", "cambio", "cuota", "por"]
    ]
  ],
  [
    "en",
    [
      ...["invoice", "qty", "quantity", "price", "amount", "description", "cash", "change", "thank", "you", "tax"],
      ...["receipt", "subtotal", "due", "bill", "the", "and", "payment", "rounding", "gst", "item", "items", "road"],
      ...["jalan", "taman", "sdn", "bhd", "terima", "kasih", "kedai", "bandar", "jln", "tmn"]
    ]
  ],
  [
    "de",
    [
      ...["rechnung", "menge", "preis", "betrag", "summe", "bar", "ruckgeld", "mwst", "vielen", "dank"],
      ...["gesamt", "zu", "zahlen", "und", "der", "die", "das", "strasse", "straße", "str", "bitte", "kasse", "gegeben"]
    ]
  ],
  [
    "fr",
    [
      ...["facture", "quantite", "prix", "montant", "tva", "merci", "especes", "rendu", "les", "et"],
      ...["des", "ttc", "ht", "payer", "rue", "echeance", "designation", "unitaire", "client", "siret"]
    ]
  ],
  [
    "it",
    [
      ...["fattura", "quantita", "prezzo", "importo", "totale", "grazie", "contanti", "il", "della", "di"],
      ...["via", "scadenza", "descrizione", "partita", "scontrino", "pagare", "imponibile"]
    ]
  ],
  [
    "pt",
    [
      ...["fatura", "quantidade", "preco", "obrigado", "dinheiro", "troco", "do", "rua", "nif"],
      ...["contribuinte", "descricao", "vencimento", "taxa", "talao"]
    ]
  ],
  [
    "nl",
    [
      ...["factuur", "aantal", "prijs", "bedrag", "totaal", "btw", "bedankt", "contant", "wisselgeld"],
      ...["het", "een", "van", "straat", "omschrijving", "vervaldatum", "klant", "betalen", "te", "bon"]
    ]
  ]
]

/**
 * The letters with marks each language writes (lower case). Italian writes its accents on a word's last letter
 * only (`città`, `perché`); Spanish writes `ü` only in `güe`, `güi`; every language writes `ñ` before a vowel only
 * and a diaeresis on `i` or `e` after a vowel only (`naïf`, `België`).
 */
export const MARKED_LETTERS: Readonly<Record<Language, string>> = {
  es: "áéíóúüñ",
  en: "",
  de: "äöüé",
  fr: "àâçéèêëîïôùûüÿ",
  it: "àèéìíòóùú",
  pt: "áâãàçéêíóôõú",
  nl: "áéèëïóöüú"
}

/** ISO 4217 codes a document prints its amounts with (`EUR 12,34`, `12.50 USD`), folded. */
export const CURRENCY_CODES: ReadonlyArray<string> = [
  ...["eur", "usd", "gbp", "chf", "myr", "inr", "pln", "brl", "mxn", "ars", "clp", "cop", "pen", "uyu", "sek"],
  ...["nok", "dkk", "czk", "huf", "jpy", "cny", "sgd", "aud", "cad", "nzd"]
]

/** Labels of the document's currency, and the words a field asking for it is named with (folded phrases). */
export const CURRENCY_LABELS: ReadonlyArray<string> = [
  ...["currency", "moneda", "divisa", "wahrung", "devise", "valuta", "moeda", "munt", "waluta"]
]
