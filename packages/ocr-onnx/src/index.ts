/** The `DocumentReader` layer: mupdf text layers and PaddleOCR-format OCR on onnxruntime, in worker threads. */
export * as OnnxReader from "./OnnxReader.js"
