/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Id of this build (git sha or a random hash); also in dist/client/build-id.txt. */
  readonly VITE_BUILD_ID: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
