/** The folder of the console's built files. */
export declare const directory: string
/** Whether the console was built (`npm run build`). */
export declare const built: () => boolean
