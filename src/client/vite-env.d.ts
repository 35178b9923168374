/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Id of this build (git sha or a random hash); also in dist/client/build-id.txt. */
  readonly VITE_BUILD_ID: string;
  /** True only in a build for the browser journeys (DIRECTORY_TEST_HOOKS=1). */
  readonly VITE_TEST_HOOKS: boolean;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
