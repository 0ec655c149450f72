// What the tests' page.evaluate callbacks use of the browser: they run in the
// page, but are type-checked here with Node's types, without the whole DOM lib
// (which clashes with the server's sources these tests import).
declare const sessionStorage: { getItem(key: string): string | null }
declare const localStorage: object
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null
  body: object
  activeElement: { tagName: string; textContent: string | null; getAttribute(name: string): string | null } | null
}
declare class MutationObserver {
  constructor(callback: () => void)
  observe(target: object, options: { subtree?: boolean; childList?: boolean; characterData?: boolean }): void
}
