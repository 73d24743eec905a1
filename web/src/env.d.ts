/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API root when it is not the serving server's /api/v1 (a different BASE_PATH). */
  readonly VITE_DUKA_API?: string;
  /** True in a build that has the service worker (build/service-worker.ts). */
  readonly DUKA_SERVICE_WORKER?: boolean;
}
