/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API root when it is not the serving server's /api/v1 (a different BASE_PATH). */
  readonly VITE_DUKA_API?: string;
}
