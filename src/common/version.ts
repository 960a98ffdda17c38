/** tongate's own version (the package's), shown by the CLI and the landing page. */
export const TONGATE_VERSION = '0.1.0';
