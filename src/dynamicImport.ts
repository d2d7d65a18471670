// import() for code that also runs from the CLI's bundle. bin/loadBundle.js runs the bundle as a
// vm.Script with V8's code cache, and a script whose functions come from that cache loses its
// import() callback (Node 20: "A dynamic import callback was not specified"). bin/powder.js, a
// plain ES module, therefore lends its own import() as globalThis.__powderImport; the unbundled
// modules (library, tests) have none and use theirs.

type Importer = (specifier: string) => Promise<unknown>;

export function dynamicImport<T>(specifier: string): Promise<T> {
  const host = (globalThis as { __powderImport?: Importer }).__powderImport;
  return (host ? host(specifier) : import(specifier)) as Promise<T>;
}
