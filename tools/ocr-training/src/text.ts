/**
 * Text of the synthetic training lines: Spanish invoices, receipts and contracts above all (amounts in `1.234,56 €`
 * form, dates, NIF/CIF/CUIT ids, upper-case receipt lines), with English, French, Portuguese, German and Italian
 * lines of the same alphabet, and a share of random strings over the whole dictionary so that every class is seen.
 * Everything comes from a seeded generator: the same seed gives the same lines.
 */

import type { Random } from "@legible/ocr-onnx/bench/random.ts"

/** An integer in [lo, hi]. */
export const int = (random: Random, lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1))
/** One element of a non-empty list. */
export const pick = <A>(random: Random, items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!

const words = (text: string): ReadonlyArray<string> => text.split(/\s+/).filter((w) => w !== "")

const spanish = words(`
factura albarán recibo ticket presupuesto contrato cliente proveedor emisor receptor dirección teléfono correo
descripción cantidad precio importe unidad unidades total subtotal base imponible IVA IRPF retención descuento
recargo equivalencia envío transporte pago forma método tarjeta efectivo transferencia domiciliación vencimiento
fecha número serie pedido código artículo referencia página señor señora razón social domicilio fiscal población
provincia código postal España México Argentina Perú Colombia Chile Bogotá Málaga Córdoba León Cádiz Almería Jaén
Ávila Logroño Alcañiz Peñíscola Gijón Cáceres Sevilla Madrid Barcelona Valencia Zaragoza Bilbao Murcia Alicante
compañía servicios técnicos mantenimiento reparación instalación revisión consultoría asesoría gestión administración
año años mes días período trimestre ejercicio económico línea líneas artículo artículos cláusula cláusulas anexo
pequeño niño niña mañana señal diseño tamaño caña piña año otoño España español española compañía montaña baño
acción información condición razón comisión gestión edición obligación devolución garantía garantías económica
crédito débito depósito máximo mínimo último única público pública técnico técnica jurídica política búsqueda
aquí allí así también además según después través está están será serán podrá deberá habrá tendrá cómo cuándo
qué quién cuál dónde por qué sí más menos café azúcar leche pan aceite agua vino cerveza jamón queso atún limón
plátano melón sandía pimentón camión autobús teléfono móvil ordenador cámara batería máquina vehículo gasolina
lavandería droguería panadería carnicería pescadería frutería farmacia ferretería librería papelería cafetería
nº núm. Sr. Sra. Dña. D. 1º 2º 3ª 4ª cuenta corriente titular entidad sucursal sociedad limitada anónima S.L. S.A.
arrendador arrendatario vendedor comprador parte partes firma firmado conformidad acuerdo presente documento
obligaciones derechos plazo prórroga rescisión penalización indemnización notificación tribunales jurisdicción
cumplimiento incumplimiento entrega recepción mercancía mercancías embalaje almacén depósito reclamación
CONSUMIDOR FINAL RESPONSABLE INSCRIPTO MONOTRIBUTO EXENTO ORIGINAL DUPLICADO TRIPLICADO COMPROBANTE AUTORIZADO
ingresos brutos inicio de actividades punto de venta comp. nro. condición frente al cód. producto servicio
bonificación percepción alícuota exportación importación período facturado desde hasta CAE vto.
¿Necesita factura? ¡Gracias por su visita! ¿Desea ticket regalo? ¡Vuelva pronto! ¡Oferta! ¿Tarjeta de cliente?
güisqui pingüino cigüeña vergüenza agüero antigüedad lingüística bilingüe ungüento
`)

const english = words(`
invoice receipt date total amount due balance payment cash change card visa tax subtotal quantity qty price unit
description item items customer account number phone address street road company limited sdn bhd store thank
you please come again order ship to bill from the and of for with this that your our service charge rounding
adjustment discount member points terms conditions signature approved name title department report form page
`)

const french = words(`
facture reçu hôtel château élève être où déjà très français société numéro à régler échéance montant
TVA prix unitaire quantité désignation règlement chèque espèces reçu crème brûlée garçon façade noël naïve cœur
sœur œuvre bœuf œil Œuvre première dernière année février août décembre fenêtre forêt île maître côté
`)

const portuguese = words(`
fatura recibo nota fiscal preço quantidade descrição não são ação informação endereço cartão crédito débito
pagamento número série razão social município São Paulo João Conceição Brasília coração irmã mãe pães limões
`)

const german = words(`
Rechnung Quittung Straße Größe Menge Preis Betrag Summe gesamt Mehrwertsteuer MwSt Überweisung Bestätigung
Kassenbon Bäckerei Müller Schröder Käse Brötchen Äpfel Öl Übersicht Fußball weiß groß schön Grüße danke Zahlung
`)

const italian = words(`
fattura ricevuta perché città più già può così caffè età qualità quantità prezzo unità attività società
partita IVA codice fiscale pagamento però lunedì martedì venerdì Niccolò Forlì
`)

const months = words("enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre")

const pad = (n: number, width: number) => String(n).padStart(width, "0")

/** 1234.5 as "1.234,50" (Spanish) or "1,234.50" (English). */
const amount = (random: Random): string => {
  const magnitude = pick(random, [10, 100, 1_000, 10_000, 1_000_000])
  const value = Math.floor(random() * magnitude * 100) / 100
  const [whole, cents] = value.toFixed(2).split(".") as [string, string]
  const english = random() < 0.2
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, english ? "," : ".")
  const text = `${grouped}${english ? "." : ","}${cents}`
  const r = random()
  if (r < 0.35) return `${text} €`
  if (r < 0.45) return `${text}€`
  if (r < 0.55) return `€ ${text}`
  if (r < 0.7) return `$ ${text}`
  if (r < 0.75) return `${text} EUR`
  return text
}

const date = (random: Random): string => {
  const d = int(random, 1, 28)
  const m = int(random, 1, 12)
  const y = int(random, 2015, 2027)
  const r = random()
  if (r < 0.4) return `${pad(d, 2)}/${pad(m, 2)}/${y}`
  if (r < 0.55) return `${pad(d, 2)}-${pad(m, 2)}-${String(y).slice(2)}`
  if (r < 0.7) return `${y}-${pad(m, 2)}-${pad(d, 2)}`
  return `${d} de ${months[m - 1]} de ${y}`
}

const identifier = (random: Random): string => {
  const digits = (n: number) => Array.from({ length: n }, () => int(random, 0, 9)).join("")
  const letter = () => String.fromCharCode(65 + int(random, 0, 25))
  return pick(random, [
    () => `CUIT: ${pick(random, ["20", "23", "27", "30", "33"])}-${digits(8)}-${digits(1)}`,
    () => `NIF: ${digits(8)}${letter()}`,
    () => `CIF: ${letter()}-${digits(8)}`,
    () => `IBAN: ES${digits(2)} ${digits(4)} ${digits(4)} ${digits(4)} ${digits(4)} ${digits(4)}`,
    () => `Tel.: +34 ${digits(3)} ${digits(3)} ${digits(3)}`,
    () => `Nº ${digits(4)}-${digits(8)}`,
    () => `Factura Nº ${letter()}${digits(4)}-${digits(8)}`,
    () => `C.P. ${digits(5)}`,
    () => `${digits(2)}:${digits(2)}:${digits(2)}`,
    () => `${int(random, 1, 99)}% IVA`,
    () =>
      `www.${pick(random, spanish)
        .toLowerCase()
        .replace(/[^a-z]/g, "")}.es`,
    () =>
      `${pick(random, spanish)
        .toLowerCase()
        .replace(/[^a-z]/g, "")}@correo.es`
  ])()
}

/** Characters for random strings: the dictionary, spaces included. */
const randomString = (random: Random, dictionary: ReadonlyArray<string>): string => {
  const length = int(random, 3, 18)
  let s = ""
  for (let i = 0; i < length; i++) s += random() < 0.15 && i > 0 && !s.endsWith(" ") ? " " : pick(random, dictionary)
  return s.trim()
}

const phrase = (random: Random, pool: ReadonlyArray<string>, count: number): string =>
  Array.from({ length: count }, () => pick(random, pool)).join(" ")

/** One line of text of 1 to ~60 characters. */
export const line = (random: Random, dictionary: ReadonlyArray<string>): string => {
  const r = random()
  let text: string
  if (r < 0.4) {
    text = phrase(random, spanish, int(random, 1, 6))
    if (random() < 0.5) text += ` ${pick(random, [amount(random), date(random), String(int(random, 1, 999))])}`
  } else if (r < 0.55) text = `${phrase(random, spanish, int(random, 1, 3))} ${amount(random)}`
  else if (r < 0.63) text = random() < 0.5 ? identifier(random) : `${phrase(random, spanish, 1)} ${date(random)}`
  else if (r < 0.7) text = phrase(random, english, int(random, 1, 6))
  else if (r < 0.85) {
    const pool = pick(random, [french, portuguese, german, italian])
    text = phrase(random, pool, int(random, 1, 5))
  } else if (r < 0.93) text = randomString(random, dictionary)
  else text = `${int(random, 1, 24)} ${phrase(random, spanish, int(random, 1, 3))} ${amount(random)}`
  // Receipts are mostly upper case.
  if (random() < 0.3) text = text.toUpperCase()
  // ß upper-cases to SS and ÿ to Ÿ: both fine, they are in the dictionary.
  return text.replace(/\s+/g, " ").trim().slice(0, 64)
}
