/** The application build version (seed §9). */
export const APP_VERSION = '1.0.0-beta.4'
