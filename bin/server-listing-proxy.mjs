#!/usr/bin/env node
// `server-listing-proxy --upstream <url>`: the validation proxy from the installed package
// (the esbuild bundle built when the package is packed). The spec and fixtures are found
// beside it; the reports go to ./reports of the directory it runs in.
import '../dist/proxy.mjs';
