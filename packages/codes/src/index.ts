/** Readers of fiscal QR codes and e-invoice XML, and builders of their payloads. */
export * as Codes from "./Codes.js"
/** QR codes drawn and read with zxing-wasm, its binary loaded from the installed package. */
export * as Qr from "./Qr.js"
