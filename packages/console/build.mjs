// Builds the console into dist/: one minified bundle (Preact and our modules, no runtime fetched from anywhere),
// the page and the stylesheet. `npm run build` at the root runs it; the browser tests run `build()` first.
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import * as Zlib from "node:zlib"
import * as esbuild from "esbuild"

const root = new URL("./", import.meta.url)

/** Builds dist/ and returns the bundle's size, raw and gzipped, in bytes. */
export const build = async () => {
  const dist = fileURLToPath(new URL("dist/", root))
  Fs.mkdirSync(dist, { recursive: true })
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL("src/main.tsx", root))],
    outfile: `${dist}app.js`,
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "none",
    logLevel: "warning"
  })
  for (const file of ["index.html", "styles.css"]) Fs.copyFileSync(new URL(`src/${file}`, root), `${dist}${file}`)
  const bundle = Fs.readFileSync(`${dist}app.js`)
  return { bytes: bundle.length, gzipped: Zlib.gzipSync(bundle).length }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { bytes, gzipped } = await build()
  console.log(`console: dist/app.js ${(bytes / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped`)
}
