// import() whose package names resolve from Powder's own install (this file's folder), for the
// start-up snapshot (scripts/snapshot.cjs): a restored process's import() goes through Node's
// main-context loader, which resolves a bare name like 'micro-eth-signer' from the working
// directory — another project's node_modules, or none.
export const importFromPowder = (specifier) => import(specifier);
