// pnpm's install hooks. Node 22 and 24 run better-sqlite3 13, which ships prebuilt;
// Node 20 runs 12, which is built on install (decision 0002). A lockfile cannot pick a
// dependency by Node version, but pnpm leaves out an optional dependency whose
// `engines` this Node does not satisfy: so 12 says it is for Node 20 only, and every
// declaration of it in the workspace is optional (decision 0023).
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === 'better-sqlite3' && /^12\./.test(pkg.version)) {
        pkg.engines = { ...pkg.engines, node: '>=20.19.0 <22' }
      }
      // Core's own tests open libraries, so core has 12 as a devDependency (its users bring
      // their own driver, decision 0108); a devDependency is installed on any Node, so in
      // the workspace it is taken as optional.
      if (pkg.name === '@complib/core' && pkg.devDependencies?.['better-sqlite3']) {
        pkg.optionalDependencies = { ...pkg.optionalDependencies, 'better-sqlite3': pkg.devDependencies['better-sqlite3'] }
        delete pkg.devDependencies['better-sqlite3']
      }
      return pkg
    },
  },
}
