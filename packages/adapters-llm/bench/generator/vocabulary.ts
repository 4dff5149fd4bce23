/**
 * What invoices and receipts print in each language, written for the generator from how real ones read (several
 * synonyms per concept): kept apart from the extractor's own lexicon, which the generator must not import.
 */

/** The generator's languages. */
export const LANGUAGES = ["es", "en", "de", "fr", "it", "pt", "nl"] as const
/** One of the generator's languages. */
export type Language = (typeof LANGUAGES)[number]

/** A language's words for each concept, and its conventions. */
export interface Vocabulary {
  readonly invoiceTitle: ReadonlyArray<string>
  readonly receiptTitle: ReadonlyArray<string>
  readonly invoiceNumber: ReadonlyArray<string>
  readonly receiptNumber: ReadonlyArray<string>
  readonly issueDate: ReadonlyArray<string>
  readonly dueDate: ReadonlyArray<string>
  readonly deliveryDate: ReadonlyArray<string>
  readonly period: ReadonlyArray<string>
  readonly expiry: ReadonlyArray<string>
  readonly orderNumber: ReadonlyArray<string>
  readonly customerNumber: ReadonlyArray<string>
  readonly billTo: ReadonlyArray<string>
  /** Labels over the seller's block where it is printed beside the buyer's. */
  readonly seller: ReadonlyArray<string>
  /** A footer's register line under the business's name (`Registered in England No. …`, `RCS Paris B …`). */
  readonly register: ReadonlyArray<string>
  readonly taxId: ReadonlyArray<string>
  readonly phone: ReadonlyArray<string>
  readonly time: ReadonlyArray<string>
  readonly cashier: ReadonlyArray<string>
  readonly description: ReadonlyArray<string>
  readonly quantity: ReadonlyArray<string>
  readonly unitPrice: ReadonlyArray<string>
  readonly amount: ReadonlyArray<string>
  readonly subtotal: ReadonlyArray<string>
  readonly tax: ReadonlyArray<string>
  readonly discount: ReadonlyArray<string>
  readonly total: ReadonlyArray<string>
  readonly roundedTotal: ReadonlyArray<string>
  readonly rounding: ReadonlyArray<string>
  readonly cash: ReadonlyArray<string>
  readonly card: ReadonlyArray<string>
  readonly change: ReadonlyArray<string>
  readonly units: ReadonlyArray<string>
  readonly thanks: ReadonlyArray<string>
  readonly payment: ReadonlyArray<string>
  readonly months: ReadonlyArray<string>
  readonly monthsShort: ReadonlyArray<string>
  /** How a written date reads: `{d}`, `{m}` (month name), `{y}`. */
  readonly writtenDate: ReadonlyArray<string>
  /** Numeric date orders in use (`mdy` only where the country writes it). */
  readonly dateOrders: ReadonlyArray<"dmy" | "mdy" | "ymd">
  /** Thousands and decimal separators in use. */
  readonly numbers: ReadonlyArray<readonly [string, string]>
  /** Currencies: symbol or code, and whether it goes before the amount. */
  readonly currencies: ReadonlyArray<readonly [string, boolean]>
  readonly legalForms: ReadonlyArray<string>
  readonly nameParts: ReadonlyArray<string>
  readonly storeNames: ReadonlyArray<string>
  readonly streets: ReadonlyArray<string>
  /** Cities with a postcode pattern (`9` a digit, `A` a letter). */
  readonly cities: ReadonlyArray<string>
  readonly taxIdPattern: ReadonlyArray<string>
  readonly products: ReadonlyArray<string>
  readonly services: ReadonlyArray<string>
}

const w = (s: string): ReadonlyArray<string> => s.split("|")

const MONTHS_EN = w("January|February|March|April|May|June|July|August|September|October|November|December")

/** Each language's vocabulary. */
export const VOCABULARY: Readonly<Record<Language, Vocabulary>> = {
  es: {
    invoiceTitle: w("FACTURA|Factura|FACTURA ORIGINAL|Factura completa"),
    receiptTitle: w("FACTURA SIMPLIFICADA|TICKET|Ticket de compra|TIQUE"),
    invoiceNumber: w("Nº factura|Número de factura|Factura n.º|Nº|NÚMERO|Num. factura"),
    receiptNumber: w("Nº ticket|Ticket nº|Nº operación|FACT. SIMPL. Nº|Nº doc."),
    issueDate: w("Fecha|Fecha de emisión|FECHA|Fecha factura|Fecha expedición"),
    dueDate: w("Vencimiento|Fecha de vencimiento|Vto.|F. vencimiento"),
    deliveryDate: w("Fecha de entrega|Entrega|F. pedido"),
    period: w("Periodo|Período de facturación|Periodo facturado"),
    expiry: w("Válido hasta|Caducidad|Devoluciones hasta"),
    orderNumber: w("Nº pedido|Pedido|Albarán nº"),
    customerNumber: w("Nº cliente|Código cliente|Cliente nº"),
    billTo: w("Cliente|Facturar a|Datos del cliente|DESTINATARIO"),
    seller: w("Emisor|Vendedor|Proveedor|Datos del emisor"),
    register: w("Registro Mercantil de Madrid, Tomo 9999, Folio 99|Inscrita en el R.M. de Valencia, Hoja V-99999"),
    taxId: w("NIF|CIF|N.I.F.|C.I.F."),
    phone: w("Tel.|Teléfono|TLF"),
    time: w("Hora|HORA"),
    cashier: w("Cajero|Caja|Atendido por|OP"),
    description: w("Descripción|Concepto|Artículo|DESCRIPCIÓN"),
    quantity: w("Cant.|Cantidad|Uds.|UNID."),
    unitPrice: w("Precio|P. unit.|Precio unitario|PVP"),
    amount: w("Importe|Total|IMPORTE|Subtotal"),
    subtotal: w("Base imponible|Subtotal|BASE IMP.|Suma"),
    tax: w("IVA|I.V.A.|Cuota IVA"),
    discount: w("Descuento|Ahorro|TOTAL VENTAJAS|Dto.|Promoción"),
    total: w("TOTAL|Total|TOTAL A PAGAR|Importe total|TOTAL FACTURA|Total (EUR)"),
    roundedTotal: w("TOTAL REDONDEADO|Total redondeado"),
    rounding: w("Redondeo|REDONDEO"),
    cash: w("EFECTIVO|Efectivo|Entregado|ENTREGA"),
    card: w("TARJETA|Tarjeta bancaria|VISA|Pago con tarjeta"),
    change: w("CAMBIO|Cambio|A devolver|DEVOLUCIÓN"),
    units: w("UD|UDS|ud.|x"),
    thanks: w("GRACIAS POR SU VISITA|Gracias por su compra|¡Vuelva pronto!|Conserve este ticket"),
    payment: w("Forma de pago: transferencia|Pago: domiciliación bancaria|Forma de pago: contado"),
    months: w("enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre"),
    monthsShort: w("ene|feb|mar|abr|may|jun|jul|ago|sep|oct|nov|dic"),
    writtenDate: w("{d} de {m} de {y}|{d} {m} {y}"),
    dateOrders: ["dmy"],
    numbers: [
      [".", ","],
      ["", ","]
    ],
    currencies: [
      ["€", false],
      ["EUR", false]
    ],
    legalForms: w("S.A.|S.L.|S.L.U.|S.A.U.|S.Coop."),
    nameParts: w(
      "Distribuciones|Talleres|Suministros|Hermanos|Gráficas|Construcciones|Ibérica|del Sur|Levante|Norte|Martínez|García|Núñez|Logística|Alimentación"
    ),
    storeNames: w("SUPERMERCADOS|ALIMENTACIÓN|FRUTERÍA|DROGUERÍA|PANADERÍA|FERRETERÍA|HIPER"),
    streets: w("Calle|C/|Avda.|Avenida|Plaza|Paseo|Ctra."),
    cities: w("99999 Madrid|99999 Sevilla|99999 Valencia|99999 Zaragoza|99999 Bilbao|99999 Málaga"),
    taxIdPattern: w("B99999999|A99999999|B-99999999"),
    products: w(
      "LECHE ENTERA|PAN DE MOLDE|ACEITE OLIVA 1L|TOMATE RAMA|HUEVOS L 12U|YOGUR NATURAL|ARROZ REDONDO|JAMÓN COCIDO|PLÁTANO|MANZANA GOLDEN|AGUA MINERAL 1,5L|CAFÉ MOLIDO|QUESO TIERNO|DETERGENTE"
    ),
    services: w(
      "Mantenimiento mensual|Reparación de equipo|Consultoría técnica|Transporte de mercancía|Licencia de software|Horas de instalación|Material de oficina|Diseño gráfico"
    )
  },
  en: {
    invoiceTitle: w("INVOICE|Invoice|TAX INVOICE|Sales Invoice"),
    receiptTitle: w("RECEIPT|Sales Receipt|CASH RECEIPT|TAX INVOICE"),
    invoiceNumber: w("Invoice No.|Invoice #|Invoice Number|INVOICE NO|Inv. No.|No."),
    receiptNumber: w("Receipt No|Receipt #|Bill No|Trans #|Doc No"),
    issueDate: w("Date|Invoice Date|DATE|Date of issue|Issue date"),
    dueDate: w("Due Date|Payment due|DUE DATE|Pay by"),
    deliveryDate: w("Delivery Date|Ship Date|Order Date"),
    period: w("Billing period|Service period|Period"),
    expiry: w("Valid until|Offer expires|Returns accepted until"),
    orderNumber: w("Order No.|PO Number|Order #"),
    customerNumber: w("Customer No.|Account No.|Customer ID"),
    billTo: w("Bill To|BILL TO|Customer|Sold To"),
    seller: w("From|Seller|Supplier|Sold By"),
    register: w("Registered in England No. 99999999|Company No. 99999999"),
    taxId: w("VAT No.|Tax ID|GST Reg No|Company Reg. No."),
    phone: w("Tel|Phone|TEL"),
    time: w("Time|TIME"),
    cashier: w("Cashier|Served by|Operator"),
    description: w("Description|Item|DESCRIPTION|Details"),
    quantity: w("Qty|Quantity|QTY|Units"),
    unitPrice: w("Unit Price|Price|Rate|U/Price"),
    amount: w("Amount|Total|AMOUNT|Line Total"),
    subtotal: w("Subtotal|Sub Total|SUBTOTAL|Net amount"),
    tax: w("VAT|Tax|GST|Sales Tax"),
    discount: w("Discount|Savings|You saved|Promotion"),
    total: w("TOTAL|Total|Grand Total|Total Due|Amount Due|Balance Due|TOTAL AMOUNT"),
    roundedTotal: w("Rounded Total|TOTAL ROUNDED|Total (rounded)"),
    rounding: w("Rounding|Rounding Adj|ROUNDING"),
    cash: w("CASH|Cash|Cash tendered|Tendered"),
    card: w("CARD|Visa|Mastercard|Card payment"),
    change: w("CHANGE|Change|Change due"),
    units: w("x|@|pcs"),
    thanks: w("THANK YOU|Thank you for shopping with us|Please come again|Goods sold are not returnable"),
    payment: w("Payment terms: 30 days|Payment by bank transfer|Terms: Net 15"),
    months: MONTHS_EN,
    monthsShort: w("Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"),
    writtenDate: w("{m} {d}, {y}|{d} {m} {y}"),
    dateOrders: ["mdy", "dmy", "ymd"],
    numbers: [
      [",", "."],
      ["", "."]
    ],
    currencies: [
      ["$", true],
      ["£", true],
      ["USD", false],
      ["RM", true]
    ],
    legalForms: w("Ltd|Ltd.|Inc.|LLC|Limited|SDN BHD|PLC|Corp."),
    nameParts: w(
      "Northern|Atlas|Pioneer|Harbour|Summit|Bright|Global|Supplies|Trading|Engineering|Hardware|Stationery|Logistics|Foods|Systems"
    ),
    storeNames: w("MART|GROCER|STORES|MINI MARKET|PHARMACY|BAKERY|HARDWARE"),
    streets: w("Street|Road|Avenue|Lane|JALAN|High Street"),
    cities: w(
      "London AA9 9AA|Springfield, IL 99999|Leeds AA9 9AA|99999 Kuala Lumpur|Austin, TX 99999|Manchester AA9 9AA"
    ),
    taxIdPattern: w("GB999 9999 99|99-9999999|999999-A"),
    products: w(
      "MILK 1L|WHITE BREAD|BANANAS|EGGS 12PK|ORANGE JUICE|CHEDDAR CHEESE|COFFEE BEANS|RICE 5KG|TOMATOES|CHICKEN BREAST|MINERAL WATER|DISH SOAP|APPLES|BUTTER 250G"
    ),
    services: w(
      "Monthly maintenance|Consulting hours|Software license|Shipping and handling|Website hosting|Installation service|Office supplies|Design work"
    )
  },
  de: {
    invoiceTitle: w("RECHNUNG|Rechnung|Rechnung (Original)"),
    receiptTitle: w("KASSENBON|Kassenbeleg|Quittung|Beleg"),
    invoiceNumber: w("Rechnungsnummer|Rechnungs-Nr.|Rechnung Nr.|Re.-Nr.|Belegnummer"),
    receiptNumber: w("Bon-Nr.|Beleg-Nr.|Bon Nr|Trans.-Nr."),
    issueDate: w("Datum|Rechnungsdatum|DATUM|Belegdatum"),
    dueDate: w("Fällig am|Zahlbar bis|Fälligkeitsdatum"),
    deliveryDate: w("Lieferdatum|Leistungsdatum|Bestelldatum"),
    period: w("Leistungszeitraum|Abrechnungszeitraum|Zeitraum"),
    expiry: w("Gültig bis|Umtausch bis"),
    orderNumber: w("Bestellnummer|Auftrags-Nr.|Bestell-Nr."),
    customerNumber: w("Kundennummer|Kunden-Nr.|Kd.-Nr."),
    billTo: w("Rechnungsempfänger|Kunde|An"),
    seller: w("Verkäufer|Lieferant|Absender|Rechnungssteller"),
    register: w("Amtsgericht München HRB 999999|Registergericht Köln HRB 99999"),
    taxId: w("USt-IdNr.|Steuernummer|St.-Nr.|USt-ID"),
    phone: w("Tel.|Telefon"),
    time: w("Uhrzeit|Zeit"),
    cashier: w("Kasse|Bediener|Kassierer"),
    description: w("Bezeichnung|Artikel|Beschreibung|Leistung"),
    quantity: w("Menge|Anz.|Anzahl|Stk."),
    unitPrice: w("Einzelpreis|E-Preis|Preis|Stückpreis"),
    amount: w("Betrag|Gesamt|Gesamtpreis|Summe"),
    subtotal: w("Zwischensumme|Nettobetrag|Summe netto|Netto"),
    tax: w("MwSt.|USt.|Mehrwertsteuer|enth. MwSt."),
    discount: w("Rabatt|Preisvorteil|Sie sparen|Nachlass"),
    total: w("SUMME|Summe|Gesamtbetrag|zu zahlen|Rechnungsbetrag|Endbetrag|GESAMT|Total"),
    roundedTotal: w("Summe gerundet|Gesamt gerundet"),
    rounding: w("Rundung|Rundungsdifferenz"),
    cash: w("BAR|Bar|Gegeben|bar gegeben"),
    card: w("EC-Karte|Kartenzahlung|girocard|Kreditkarte"),
    change: w("Rückgeld|RÜCKGELD|Zurück|Wechselgeld"),
    units: w("x|Stk|St"),
    thanks: w("Vielen Dank für Ihren Einkauf|Danke und auf Wiedersehen|Bitte Bon aufbewahren"),
    payment: w("Zahlbar innerhalb von 14 Tagen ohne Abzug|Zahlung per Überweisung"),
    months: w("Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember"),
    monthsShort: w("Jan.|Feb.|März|Apr.|Mai|Juni|Juli|Aug.|Sept.|Okt.|Nov.|Dez."),
    writtenDate: w("{d}. {m} {y}|{d} {m} {y}"),
    dateOrders: ["dmy"],
    numbers: [
      [".", ","],
      ["", ","]
    ],
    currencies: [
      ["€", false],
      ["EUR", false]
    ],
    legalForms: w("GmbH|GmbH & Co. KG|AG|KG|e.K.|UG (haftungsbeschränkt)"),
    nameParts: w(
      "Müller|Schneider|Bäckerei|Elektro|Technik|Handel|Bau|Nord|Süd|Werkstatt|Druckerei|Logistik|Weber|Holz|Metall"
    ),
    storeNames: w("MARKT|DROGERIE|APOTHEKE|BÄCKEREI|GETRÄNKE|BAUMARKT|KIOSK"),
    streets: w("Straße|Str.|Weg|Allee|Platz|Ring"),
    cities: w("99999 Berlin|99999 München|99999 Hamburg|99999 Köln|99999 Leipzig|99999 Stuttgart"),
    taxIdPattern: w("DE999999999|99/999/99999"),
    products: w(
      "VOLLMILCH 1L|ROGGENBROT|BANANEN|EIER 10ER|APFELSAFT|GOUDA SCHEIBEN|KAFFEE GEMAHLEN|BUTTER|TOMATEN|NUDELN 500G|MINERALWASSER|SPÜLMITTEL|ÄPFEL|JOGHURT"
    ),
    services: w(
      "Wartung monatlich|Beratung (Stunden)|Softwarelizenz|Versandkosten|Montage vor Ort|Reparatur|Büromaterial|Webhosting"
    )
  },
  fr: {
    invoiceTitle: w("FACTURE|Facture|Facture n°"),
    receiptTitle: w("TICKET DE CAISSE|Ticket|REÇU|Note"),
    invoiceNumber: w("Facture n°|N° de facture|Numéro de facture|N° facture|Réf. facture"),
    receiptNumber: w("Ticket n°|N° ticket|N° transaction"),
    issueDate: w("Date|Date de facture|Date d'émission|DATE|Le"),
    dueDate: w("Échéance|Date d'échéance|À payer avant le"),
    deliveryDate: w("Date de livraison|Livré le|Date de commande"),
    period: w("Période|Période de facturation|Période du"),
    expiry: w("Valable jusqu'au|Date limite"),
    orderNumber: w("N° de commande|Commande n°|Bon de commande"),
    customerNumber: w("N° client|Code client|Référence client"),
    billTo: w("Client|Facturé à|Destinataire|Adresse de facturation"),
    seller: w("Émetteur|Vendeur|Fournisseur|Prestataire"),
    register: w("RCS Paris B 999 999 999 - SIRET 99999999999999|SAS au capital de 10 000 € - RCS Lyon 999 999 999"),
    taxId: w("N° TVA|TVA intracom.|SIRET|SIREN"),
    phone: w("Tél.|Téléphone"),
    time: w("Heure|HEURE"),
    cashier: w("Caisse|Caissier|Vendeur"),
    description: w("Désignation|Description|Article|Libellé"),
    quantity: w("Qté|Quantité|QTÉ"),
    unitPrice: w("Prix unitaire|P.U.|PU HT|Prix"),
    amount: w("Montant|Total|Montant HT|Prix total"),
    subtotal: w("Total HT|Sous-total|Montant HT|Base HT"),
    tax: w("TVA|T.V.A.|Montant TVA"),
    discount: w("Remise|Réduction|Économies|Avantage fidélité"),
    total: w("TOTAL|Total TTC|Net à payer|Montant TTC|TOTAL À PAYER|Total à régler"),
    roundedTotal: w("Total arrondi|TOTAL ARRONDI"),
    rounding: w("Arrondi|ARRONDI"),
    cash: w("ESPÈCES|Espèces|Montant reçu"),
    card: w("CB|Carte bancaire|Paiement CB|CARTE"),
    change: w("Rendu|RENDU MONNAIE|Monnaie rendue"),
    units: w("x|pce|u"),
    thanks: w("MERCI DE VOTRE VISITE|Merci et à bientôt|Conservez votre ticket"),
    payment: w("Règlement à 30 jours|Paiement par virement|Conditions de paiement : comptant"),
    months: w("janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"),
    monthsShort: w("janv.|févr.|mars|avr.|mai|juin|juil.|août|sept.|oct.|nov.|déc."),
    writtenDate: w("{d} {m} {y}|le {d} {m} {y}"),
    dateOrders: ["dmy"],
    numbers: [
      [" ", ","],
      ["", ","],
      [".", ","]
    ],
    currencies: [
      ["€", false],
      ["EUR", false]
    ],
    legalForms: w("SARL|SAS|S.A.|EURL|SA|SNC"),
    nameParts: w(
      "Boulangerie|Dupont|Martin|Électricité|Transports|Atelier|du Centre|Lefèvre|Services|Imprimerie|Garage|Bâtiment|Provence|Rousseau|Moreau"
    ),
    storeNames: w("SUPERMARCHÉ|ÉPICERIE|PHARMACIE|BOULANGERIE|PRIMEUR|BRICOLAGE|MARCHÉ"),
    streets: w("rue|avenue|boulevard|place|chemin|allée"),
    cities: w("99999 Paris|99999 Lyon|99999 Marseille|99999 Toulouse|99999 Nantes|99999 Lille"),
    taxIdPattern: w("FR99999999999|999 999 999 99999"),
    products: w(
      "LAIT DEMI-ÉCRÉMÉ|BAGUETTE|BANANES|ŒUFS X12|JUS D'ORANGE|COMTÉ|CAFÉ MOULU|BEURRE DOUX|TOMATES|PÂTES 500G|EAU MINÉRALE|LIQUIDE VAISSELLE|POMMES|YAOURT NATURE"
    ),
    services: w(
      "Maintenance mensuelle|Conseil (heures)|Licence logiciel|Frais de port|Installation sur site|Réparation|Fournitures de bureau|Hébergement web"
    )
  },
  it: {
    invoiceTitle: w("FATTURA|Fattura|Fattura n."),
    receiptTitle: w("SCONTRINO|Documento commerciale|SCONTRINO FISCALE|Ricevuta"),
    invoiceNumber: w("Fattura n.|Numero fattura|N. fattura|N°|Num. documento"),
    receiptNumber: w("Doc. n.|Documento n.|Scontrino n.|N. op."),
    issueDate: w("Data|Data fattura|DATA|Data emissione|Data documento"),
    dueDate: w("Scadenza|Data scadenza|Scad."),
    deliveryDate: w("Data consegna|Data ordine|Consegna"),
    period: w("Periodo|Periodo di fatturazione|Competenza"),
    expiry: w("Valido fino al|Reso entro il"),
    orderNumber: w("N. ordine|Ordine n.|Rif. ordine"),
    customerNumber: w("Codice cliente|Cod. cliente|Cliente n."),
    billTo: w("Cliente|Spett.le|Destinatario|Intestatario"),
    seller: w("Fornitore|Cedente|Venditore|Emittente"),
    register: w("REA MI-9999999 - Capitale sociale € 10.000 i.v.|Registro Imprese di Roma n. 99999999999"),
    taxId: w("P. IVA|P.IVA|Partita IVA|C.F."),
    phone: w("Tel.|Telefono"),
    time: w("Ora|ORA"),
    cashier: w("Cassa|Operatore|Cassiere"),
    description: w("Descrizione|Articolo|DESCRIZIONE|Prodotto"),
    quantity: w("Q.tà|Quantità|Qtà|QTA"),
    unitPrice: w("Prezzo unitario|Prezzo|P. unit.|Prezzo un."),
    amount: w("Importo|Totale|IMPORTO|Prezzo"),
    subtotal: w("Imponibile|Subtotale|Totale imponibile|SUBTOTALE"),
    tax: w("IVA|I.V.A.|Imposta"),
    discount: w("Sconto|Risparmio|Sconti|Promozione"),
    total: w("TOTALE|Totale|Totale documento|TOTALE COMPLESSIVO|Totale da pagare|Importo totale"),
    roundedTotal: w("Totale arrotondato|TOTALE ARROTONDATO"),
    rounding: w("Arrotondamento|ARROTONDAMENTO"),
    cash: w("CONTANTI|Contanti|Pagamento contante|Contante"),
    card: w("Pagamento elettronico|CARTA|Bancomat|Carta di credito"),
    change: w("RESTO|Resto|Resto dovuto"),
    units: w("x|pz|PZ"),
    thanks: w("GRAZIE E ARRIVEDERCI|Grazie per l'acquisto|Conservare lo scontrino"),
    payment: w("Pagamento: bonifico bancario a 30 gg|Modalità di pagamento: RID"),
    months: w("gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre"),
    monthsShort: w("gen|feb|mar|apr|mag|giu|lug|ago|set|ott|nov|dic"),
    writtenDate: w("{d} {m} {y}"),
    dateOrders: ["dmy"],
    numbers: [
      [".", ","],
      ["", ","]
    ],
    currencies: [
      ["€", false],
      ["EUR", false],
      ["€", true]
    ],
    legalForms: w("S.p.A.|S.r.l.|S.R.L.|S.n.c.|S.a.s."),
    nameParts: w(
      "Rossi|Bianchi|Ferramenta|Trasporti|Costruzioni|Alimentari|Lombarda|del Nord|Tipografia|Officina|Servizi|Esposito|Ricci|Italiana|Meccanica"
    ),
    storeNames: w("SUPERMERCATO|ALIMENTARI|FARMACIA|PANIFICIO|FERRAMENTA|MINIMARKET|FRUTTA E VERDURA"),
    streets: w("Via|Viale|Piazza|Corso|Largo"),
    cities: w("99999 Milano|99999 Roma|99999 Torino|99999 Napoli|99999 Bologna|99999 Firenze"),
    taxIdPattern: w("IT99999999999|99999999999"),
    products: w(
      "LATTE INTERO|PANE COMUNE|BANANE|UOVA 6 PZ|SUCCO ARANCIA|PARMIGIANO|CAFFÈ MACINATO|BURRO|POMODORI|PASTA 500G|ACQUA MINERALE|DETERSIVO PIATTI|MELE|YOGURT BIANCO"
    ),
    services: w(
      "Manutenzione mensile|Consulenza (ore)|Licenza software|Spese di spedizione|Installazione|Riparazione|Cancelleria|Hosting sito web"
    )
  },
  pt: {
    invoiceTitle: w("FATURA|Fatura|FATURA-RECIBO|Fatura n.º"),
    receiptTitle: w("FATURA SIMPLIFICADA|Talão|RECIBO|Talão de compra"),
    invoiceNumber: w("Fatura n.º|N.º fatura|Número da fatura|Fatura Nº|Documento n.º"),
    receiptNumber: w("Talão n.º|Doc. n.º|N.º documento|FS n.º"),
    issueDate: w("Data|Data de emissão|DATA|Data da fatura"),
    dueDate: w("Vencimento|Data de vencimento|Data limite de pagamento"),
    deliveryDate: w("Data de entrega|Data da encomenda"),
    period: w("Período|Período de faturação|Período de consumo"),
    expiry: w("Válido até|Trocas até"),
    orderNumber: w("N.º encomenda|Encomenda|Ref. encomenda"),
    customerNumber: w("N.º cliente|Código cliente|Cliente n.º"),
    billTo: w("Cliente|Exmo.(s) Sr.(s)|Faturar a|Adquirente"),
    seller: w("Fornecedor|Vendedor|Emitente|Prestador"),
    register: w("Capital social 5.000 € - Matrícula CRC Lisboa 999999999|NIPC 999999999"),
    taxId: w("NIF|Contribuinte|N.º contribuinte|NIPC"),
    phone: w("Tel.|Telefone"),
    time: w("Hora|HORA"),
    cashier: w("Caixa|Operador|Funcionário"),
    description: w("Descrição|Artigo|Designação|DESCRIÇÃO"),
    quantity: w("Qtd.|Quantidade|QTD|Qt."),
    unitPrice: w("Preço unitário|Preço|P. unit.|Preço un."),
    amount: w("Valor|Total|Montante|VALOR"),
    subtotal: w("Subtotal|Total ilíquido|Base tributável|Incidência"),
    tax: w("IVA|I.V.A.|Total IVA"),
    discount: w("Desconto|Poupança|Descontos|Promoção"),
    total: w("TOTAL|Total|Total a pagar|TOTAL A PAGAR|Valor total|Total do documento"),
    roundedTotal: w("Total arredondado|TOTAL ARREDONDADO"),
    rounding: w("Arredondamento|ARREDONDAMENTO"),
    cash: w("NUMERÁRIO|Numerário|Dinheiro|Valor entregue"),
    card: w("Multibanco|MB|Cartão|Pagamento com cartão"),
    change: w("TROCO|Troco"),
    units: w("x|un|UN"),
    thanks: w("OBRIGADO PELA SUA VISITA|Obrigado e volte sempre|Guarde o seu talão"),
    payment: w("Condições de pagamento: 30 dias|Pagamento por transferência bancária"),
    months: w("janeiro|fevereiro|março|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro"),
    monthsShort: w("jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez"),
    writtenDate: w("{d} de {m} de {y}|{d} {m} {y}"),
    dateOrders: ["dmy", "ymd"],
    numbers: [
      [".", ","],
      [" ", ","],
      ["", ","]
    ],
    currencies: [
      ["€", false],
      ["EUR", false]
    ],
    legalForms: w("Lda.|Lda|S.A.|Unipessoal Lda.|SA"),
    nameParts: w(
      "Silva|Santos|Ferreira|Construções|Transportes|Padaria|Lusitana|do Norte|Atlântico|Comércio|Serviços|Oliveira|Pereira|Distribuição|Gráfica"
    ),
    storeNames: w("SUPERMERCADO|MERCEARIA|FARMÁCIA|PADARIA|DROGARIA|MINIMERCADO|FRUTARIA"),
    streets: w("Rua|Avenida|Av.|Praça|Largo|Travessa"),
    cities: w("9999-999 Lisboa|9999-999 Porto|9999-999 Braga|9999-999 Coimbra|9999-999 Faro|9999-999 Aveiro"),
    taxIdPattern: w("PT999999999|999999999"),
    products: w(
      "LEITE MEIO GORDO|PÃO DE FORMA|BANANA|OVOS M 12UN|SUMO DE LARANJA|QUEIJO FLAMENGO|CAFÉ MOÍDO|MANTEIGA|TOMATE|ARROZ AGULHA|ÁGUA MINERAL|DETERGENTE LOIÇA|MAÇÃ|IOGURTE NATURAL"
    ),
    services: w(
      "Manutenção mensal|Consultoria (horas)|Licença de software|Portes de envio|Instalação|Reparação|Material de escritório|Alojamento web"
    )
  },
  nl: {
    invoiceTitle: w("FACTUUR|Factuur|Verkoopfactuur"),
    receiptTitle: w("KASSABON|Kassabon|Bon|Aankoopbewijs"),
    invoiceNumber: w("Factuurnummer|Factuurnr.|Factuur nr.|Nummer|Fact.nr."),
    receiptNumber: w("Bonnummer|Bon nr.|Transactienr.|Bonnr."),
    issueDate: w("Datum|Factuurdatum|DATUM|Datum factuur"),
    dueDate: w("Vervaldatum|Te betalen voor|Uiterste betaaldatum"),
    deliveryDate: w("Leverdatum|Besteldatum|Afleverdatum"),
    period: w("Periode|Factuurperiode|Looptijd"),
    expiry: w("Geldig tot|Ruilen tot"),
    orderNumber: w("Ordernummer|Bestelnummer|Order nr."),
    customerNumber: w("Klantnummer|Debiteurnummer|Klantnr."),
    billTo: w("Klant|Factuuradres|Aan|Afnemer"),
    seller: w("Verkoper|Leverancier|Afzender|Van"),
    register: w("KvK 99999999|Handelsregister KvK nr. 99999999"),
    taxId: w("BTW-nr.|BTW nummer|KvK|Btw-id"),
    phone: w("Tel.|Telefoon"),
    time: w("Tijd|TIJD"),
    cashier: w("Kassa|Kassier|Medewerker"),
    description: w("Omschrijving|Artikel|OMSCHRIJVING|Product"),
    quantity: w("Aantal|Aant.|AANTAL"),
    unitPrice: w("Prijs|Stukprijs|Prijs per stuk|Eenheidsprijs"),
    amount: w("Bedrag|Totaal|BEDRAG|Subtotaal"),
    subtotal: w("Subtotaal|Totaal excl. btw|Netto bedrag|SUBTOTAAL"),
    tax: w("BTW|btw|Btw-bedrag"),
    discount: w("Korting|Voordeel|Uw voordeel|Bonus"),
    total: w("TOTAAL|Totaal|Te betalen|Totaal incl. btw|TE BETALEN|Totaalbedrag"),
    roundedTotal: w("Totaal afgerond|AFGEROND TOTAAL"),
    rounding: w("Afronding|AFRONDING"),
    cash: w("CONTANT|Contant|Betaald contant"),
    card: w("PIN|Pinbetaling|Maestro|Creditcard"),
    change: w("WISSELGELD|Wisselgeld|Terug"),
    units: w("x|st|ST"),
    thanks: w("BEDANKT VOOR UW BEZOEK|Tot ziens|Bewaar uw kassabon"),
    payment: w("Betaling binnen 14 dagen|Gelieve het bedrag over te maken"),
    months: w("januari|februari|maart|april|mei|juni|juli|augustus|september|oktober|november|december"),
    monthsShort: w("jan|feb|mrt|apr|mei|jun|jul|aug|sep|okt|nov|dec"),
    writtenDate: w("{d} {m} {y}"),
    dateOrders: ["dmy"],
    numbers: [
      [".", ","],
      ["", ","]
    ],
    currencies: [
      ["€", true],
      ["EUR", true],
      ["€", false]
    ],
    legalForms: w("B.V.|BV|N.V.|V.O.F.|B.V"),
    nameParts: w(
      "de Vries|Jansen|Bakkerij|Installatietechniek|Transport|Holland|Noord|Drukkerij|Groothandel|Bouw|Visser|Smit|Dijkstra|Techniek|Handelsonderneming"
    ),
    storeNames: w("SUPERMARKT|DROGISTERIJ|APOTHEEK|BAKKERIJ|SLIJTERIJ|BOUWMARKT|TOKO"),
    streets: w("straat|weg|laan|plein|gracht|kade"),
    cities: w(
      "9999 AA Amsterdam|9999 AA Rotterdam|9999 AA Utrecht|9999 AA Den Haag|9999 AA Eindhoven|9999 AA Groningen"
    ),
    taxIdPattern: w("NL999999999B01|99999999"),
    products: w(
      "HALFVOLLE MELK|BRUIN BROOD|BANANEN|EIEREN 10ST|SINAASAPPELSAP|GOUDSE KAAS|KOFFIE SNELFILTER|ROOMBOTER|TOMATEN|PASTA 500G|MINERAALWATER|AFWASMIDDEL|APPELS|YOGHURT"
    ),
    services: w(
      "Onderhoud maandelijks|Advies (uren)|Softwarelicentie|Verzendkosten|Installatie op locatie|Reparatie|Kantoorartikelen|Webhosting"
    )
  }
}
