/** Absolute path of the Node 22 binary from the npm package `node@22`. */
export declare const node22Path: string
