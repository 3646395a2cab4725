// The types of the vendored Preact (preact.mjs beside this file, copied from the npm package by
// `npm run vendor`): those the package itself ships.
export * from "preact";
