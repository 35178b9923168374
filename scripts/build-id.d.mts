// Types of build-id.mjs (plain JavaScript, imported by vite.config.ts and its test).
export declare const BUILD_INPUTS: readonly string[];
export declare function sourcesHash(root: string): string;
export declare function resolveBuildId(root: string, env?: Record<string, string | undefined>): string;
