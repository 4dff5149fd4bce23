/** The `DocumentReader` layer: mupdf text layers and PaddleOCR-format OCR on onnxruntime, in worker threads. */
export * as OnnxReader from "./OnnxReader.js"
/** The `PageRenderer` layer: one page of a document as a PNG at a requested width, in mupdf worker threads. */
export * as PageRenderer from "./PageRenderer.js"
