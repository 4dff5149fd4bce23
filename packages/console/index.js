// The console's built files, for the server to serve (`npm run build` writes them; `build.mjs`).
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"

/** The folder of the console's built files. */
export const directory = fileURLToPath(new URL("./dist/", import.meta.url))

/** Whether the console was built (`npm run build`). */
export const built = () => Fs.existsSync(new URL("./dist/index.html", import.meta.url))
