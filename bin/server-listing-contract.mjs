#!/usr/bin/env node
// `server-listing-contract --base-url <url>` (or `--start-mock`): the contract suite from
// the installed package (the esbuild bundles built when the package is packed). The
// spec and fixtures are found beside it; the reports go to ./reports of the directory
// it runs in.
import '../dist/contract.mjs';
